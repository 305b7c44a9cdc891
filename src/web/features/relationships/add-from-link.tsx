import type { RelationshipType } from "@shared/relationships";
import { useSearchParams } from "react-router";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { useAddRelationship, useOrganizationSearch } from "@/features/relationships/api";

/**
 * A notice mail's "Add back" (Buddies) or "Add to block list" (Block List) opens the page with
 * `?add=<domain>`. Opening the link changes nothing (mail scanners open every link): the page
 * names the company as the server knows it and waits for the button. A company the search does
 * not offer (the caller itself, either side of its block list, unknown) shows nothing.
 */
export function AddFromLink({ type, label }: { type: RelationshipType; label: string }) {
  const [params, setParams] = useSearchParams();
  const domain = params.get("add")?.trim().toLowerCase() ?? "";
  const search = useOrganizationSearch(domain, type);
  const add = useAddRelationship(type);
  const match = search.data?.find((organization) => organization.domain === domain);
  if (!domain || !match) return null;

  const dismiss = () =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete("add");
        return next;
      },
      { replace: true },
    );
  const list = type === "complement" ? "your Buddies" : "your block list";

  return (
    <Card role="region" aria-label={`Add ${match.name}`} className="gap-4 py-4 sm:max-w-xl">
      <CardHeader className="px-4">
        <CardTitle>
          Add {match.name} to {list}?
        </CardTitle>
        <CardDescription>
          {type === "complement"
            ? `${match.name} (${match.domain}) added you as a Buddy. Add it back to share its ads in your mail.`
            : `${match.name} (${match.domain}) joined Buddy in your category. On your block list, neither of you is suggested to the other.`}
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-wrap gap-2 px-4">
        <Button
          disabled={add.isPending}
          onClick={() =>
            add.mutate(
              { organizationId: match.id, name: match.name, url: match.website },
              { onSuccess: dismiss },
            )
          }
        >
          {label}
        </Button>
        <Button variant="outline" onClick={dismiss}>
          Not now
        </Button>
      </CardContent>
    </Card>
  );
}
