import type { ApiKey } from "@shared/api-keys";
import type { Collateral } from "@shared/collateral";
import type { Organization } from "@shared/organizations";
import type { Relationship } from "@shared/relationships";

export function makeOrganization(overrides: Partial<Organization> = {}): Organization {
  return {
    id: "org-1",
    name: "Acme",
    website: "acme.com",
    domain: "acme.com",
    industry: "Software",
    size: 50,
    description: "Acme makes collaboration software.",
    category: "collaboration",
    categoryName: "Collaboration",
    isPlatformUser: true,
    logoUrl: null,
    domainVerified: true,
    ...overrides,
  };
}

type RelationshipOverrides = Partial<Omit<Relationship, "targetOrg">> & {
  targetOrg?: Partial<Relationship["targetOrg"]>;
};

export function makeRelationship({ targetOrg, ...overrides }: RelationshipOverrides = {}): Relationship {
  return {
    id: "rel-1",
    type: "complement",
    status: "active",
    notes: null,
    reason: null,
    confidence: null,
    strengthScore: 5,
    createdAt: "2025-01-01T00:00:00.000Z",
    sourceOrg: { id: "org-1" },
    ...overrides,
    targetOrg: {
      id: "org-2",
      name: "Mailfast",
      website: "https://mailfast.io",
      domain: "mailfast.io",
      category: "email",
      categoryName: "Email",
      description: "Transactional email for developers.",
      industry: "Software",
      size: 20,
      isPlatformUser: false,
      logoUrl: null,
      ...targetOrg,
    },
  };
}

export function makeCollateral(overrides: Partial<Collateral> = {}): Collateral {
  return {
    id: "col-1",
    type: "email_cta",
    name: "Try Acme free",
    description: "Collaboration software for busy teams.",
    ctaText: "Start free trial",
    ctaUrl: "https://acme.com/signup?utm_source=buddy&utm_medium=email&utm_campaign=acme",
    imageUrl: null,
    status: "active",
    organizationId: "org-1",
    createdByOrganizationId: "org-1",
    createdAt: "2025-01-01T12:00:00.000Z",
    updatedAt: "2025-01-01T12:00:00.000Z",
    ...overrides,
  };
}

export function makeApiKey(overrides: Partial<ApiKey> = {}): ApiKey {
  return {
    id: "key-1",
    name: "Production API Key",
    key: "bk_live_••••••••a1b2",
    createdAt: "2025-01-15T12:00:00.000Z",
    lastUsed: null,
    ...overrides,
  };
}
