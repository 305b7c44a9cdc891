import type { Relationship } from "@shared/relationships";
import { BadgeCheck } from "lucide-react";
import type { ReactNode } from "react";
import { externalHref } from "@/components/external-link-button";
import { OrgLogo } from "@/components/org-logo";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";

const NOT_SET = "—";

function ProfileFact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-1">
      <dt className="text-muted-foreground text-sm">{label}</dt>
      <dd className="text-sm">{children}</dd>
    </div>
  );
}

/** SPEC §2 tool detail: the partner company's profile and the partnership's strength and notes. */
export function ToolProfileCard({ relationship }: { relationship: Relationship }) {
  const { targetOrg: org, strengthScore, notes } = relationship;

  return (
    <Card data-testid="tool-profile">
      <CardHeader>
        <CardTitle>Company Profile</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-6">
        <div className="flex items-center gap-4">
          <OrgLogo domain={org.domain} name={org.name} logoUrl={org.logoUrl} className="size-16" />
          <div className="grid min-w-0 gap-1">
            <div className="flex flex-wrap items-center gap-2">
              <h2 className="font-semibold text-lg">{org.name}</h2>
              {org.isPlatformUser ? (
                <Badge className="border-transparent bg-emerald-100 text-emerald-800">
                  <BadgeCheck />
                  Verified Partner
                </Badge>
              ) : null}
            </div>
            <a
              href={externalHref(org.website)}
              target="_blank"
              rel="noopener noreferrer"
              className="truncate text-primary text-sm underline-offset-4 hover:underline"
            >
              {org.website}
            </a>
          </div>
        </div>
        {org.description ? <p className="text-sm leading-relaxed">{org.description}</p> : null}
        <dl className="grid gap-4 sm:grid-cols-3">
          <ProfileFact label="Industry">{org.industry ?? NOT_SET}</ProfileFact>
          <ProfileFact label="Size">{org.size === null ? NOT_SET : `${org.size} employees`}</ProfileFact>
          <ProfileFact label="Partnership Strength">{`${strengthScore}/10`}</ProfileFact>
        </dl>
        <dl>
          <ProfileFact label="Notes">{notes ?? NOT_SET}</ProfileFact>
        </dl>
      </CardContent>
    </Card>
  );
}
