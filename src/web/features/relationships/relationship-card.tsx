import type { Relationship } from "@shared/relationships";
import { Trash2 } from "lucide-react";
import { Link } from "react-router";
import { ExternalLinkButton } from "@/components/external-link-button";
import { OrgLogo } from "@/components/org-logo";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader } from "@/components/ui/card";
import { Tooltip, TooltipContent, TooltipTrigger } from "@/components/ui/tooltip";
import { StatusBadge } from "@/features/relationships/status-badge";

type RelationshipCardProps = {
  relationship: Relationship;
  /** Where the card leads (the tool detail page); the whole card is clickable. */
  href?: string;
  showStatus?: boolean;
  /** The remove button's name and tooltip ('Remove Competitor'). */
  removeLabel: string;
  removing: boolean;
  onRemove: () => void;
  /** The latest customer overlap in words ("38 shared customers"), when a run found it. */
  overlap?: string;
};

/** One Buddy or competitor: logo, name, domain, category, status and notes, with its actions. */
export function RelationshipCard({
  relationship,
  href,
  showStatus = false,
  removeLabel,
  removing,
  onRemove,
  overlap,
}: RelationshipCardProps) {
  const { targetOrg: org, notes, status } = relationship;
  const category = org.categoryName ?? org.category;

  return (
    <Card data-testid="relationship-card" className="relative gap-3 py-5 transition-shadow hover:shadow-md">
      <CardHeader className="flex items-start gap-3 px-5">
        <OrgLogo domain={org.domain} name={org.name} logoUrl={org.logoUrl} />
        <div className="min-w-0 flex-1">
          <h2 className="truncate font-semibold">
            {href ? (
              // The link's ::after covers the card, so a click anywhere opens the detail page
              // while the action buttons (raised above it) stay separate controls.
              <Link
                to={href}
                className="outline-none after:absolute after:inset-0 after:rounded-xl focus-visible:underline"
              >
                {org.name}
              </Link>
            ) : (
              org.name
            )}
          </h2>
          <p className="truncate text-muted-foreground text-sm">{org.domain}</p>
        </div>
        <div className="relative z-10 flex shrink-0 items-center">
          <ExternalLinkButton url={org.website} name={org.name} />
          <Tooltip>
            <TooltipTrigger asChild>
              <Button
                variant="ghost"
                size="icon"
                className="size-8 text-muted-foreground hover:text-destructive"
                aria-label={removeLabel}
                disabled={removing}
                onClick={onRemove}
              >
                <Trash2 />
              </Button>
            </TooltipTrigger>
            <TooltipContent>{removeLabel}</TooltipContent>
          </Tooltip>
        </div>
      </CardHeader>
      <CardContent className="grid gap-2 px-5">
        <div className="flex flex-wrap gap-2">
          {category ? <Badge variant="secondary">{category}</Badge> : null}
          {showStatus ? <StatusBadge status={status} /> : null}
          {overlap ? <Badge variant="outline">{overlap}</Badge> : null}
        </div>
        {notes ? <p className="line-clamp-3 text-muted-foreground text-sm">{notes}</p> : null}
      </CardContent>
    </Card>
  );
}
