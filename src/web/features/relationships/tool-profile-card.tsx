import { type Relationship, STRENGTH_DAYS } from "@shared/relationships";
import { BadgeCheck } from "lucide-react";
import { formatSize, NOT_SET, OrgIdentity, ProfileFact } from "@/components/org-profile";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";

/** SPEC §2 tool detail: the partner company's profile and the partnership's strength and notes. */
export function ToolProfileCard({ relationship }: { relationship: Relationship }) {
  const { targetOrg: org, strengthScore, notes } = relationship;

  return (
    <Card data-testid="tool-profile">
      <CardHeader>
        <CardTitle>Company Profile</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-6">
        <OrgIdentity
          org={org}
          logoClassName="size-16"
          title={
            <div className="flex flex-wrap items-center gap-2">
              <h2 className="font-semibold text-lg">{org.name}</h2>
              {org.isPlatformUser ? (
                <Badge className="border-transparent bg-emerald-100 text-emerald-800">
                  <BadgeCheck />
                  Verified Partner
                </Badge>
              ) : null}
            </div>
          }
        />
        {org.description ? <p className="text-sm leading-relaxed">{org.description}</p> : null}
        <dl className="grid gap-4 sm:grid-cols-3">
          <ProfileFact label="Industry">{org.industry ?? NOT_SET}</ProfileFact>
          <ProfileFact label="Size">{formatSize(org.size)}</ProfileFact>
          <ProfileFact label="Partnership Strength">
            <span className="grid gap-0.5">
              <span data-testid="strength-score">{`${strengthScore}/10`}</span>
              {/* What moves it, so a partner's traffic and sales are seen to count (docs/decisions.md). */}
              <span className="text-muted-foreground text-xs">
                How your categories fit, and the clicks, leads and sales you exchanged in the last{" "}
                {STRENGTH_DAYS} days
              </span>
            </span>
          </ProfileFact>
        </dl>
        <dl>
          <ProfileFact label="Notes">{notes ?? NOT_SET}</ProfileFact>
        </dl>
      </CardContent>
    </Card>
  );
}
