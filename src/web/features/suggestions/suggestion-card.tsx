import type { Relationship, RelationshipType } from "@shared/relationships";
import { Handshake, ShieldBan, Trash2 } from "lucide-react";
import { ExternalLinkButton } from "@/components/external-link-button";
import { OrgLogo } from "@/components/org-logo";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardFooter, CardHeader } from "@/components/ui/card";

type SuggestionCardProps = {
  suggestion: Relationship;
  busy: boolean;
  onAccept: (type: RelationshipType) => void;
  onRemove: () => void;
};

/** One suggested organization with why it was suggested and the three SPEC §2 actions. */
export function SuggestionCard({ suggestion, busy, onAccept, onRemove }: SuggestionCardProps) {
  const { targetOrg: org, reason } = suggestion;
  const category = org.categoryName ?? org.category;

  return (
    <Card data-testid="suggestion-card" className="gap-4 py-5">
      <CardHeader className="flex items-start gap-3 px-5">
        <OrgLogo domain={org.domain} name={org.name} logoUrl={org.logoUrl} />
        <div className="min-w-0 flex-1">
          <h2 className="truncate font-semibold">{org.name}</h2>
          <p className="truncate text-muted-foreground text-sm">{org.domain}</p>
        </div>
        <ExternalLinkButton url={org.website} name={org.name} />
      </CardHeader>
      <CardContent className="grid flex-1 content-start gap-2 px-5">
        <div className="flex flex-wrap gap-2">
          {category ? <Badge variant="secondary">{category}</Badge> : null}
          {org.isPlatformUser ? <Badge>Platform User</Badge> : null}
        </div>
        {org.description ? (
          <p className="line-clamp-2 text-sm" title={org.description}>
            {org.description}
          </p>
        ) : null}
        {reason ? <p className="text-muted-foreground text-xs italic">{reason}</p> : null}
      </CardContent>
      <CardFooter className="flex flex-wrap gap-2 px-5">
        <Button size="sm" variant="outline" disabled={busy} onClick={() => onAccept("competitor")}>
          <ShieldBan />
          Add as Competitor
        </Button>
        <Button size="sm" disabled={busy} onClick={() => onAccept("complement")}>
          <Handshake />
          Add as Buddy
        </Button>
        <Button
          size="sm"
          variant="ghost"
          className="text-muted-foreground hover:text-destructive"
          disabled={busy}
          onClick={onRemove}
        >
          <Trash2 />
          Remove Suggestion
        </Button>
      </CardFooter>
    </Card>
  );
}
