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
