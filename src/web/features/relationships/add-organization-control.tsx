import type { RelationshipType } from "@shared/relationships";
import { Plus, X } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { type AddOrganizationInput, useAddRelationship } from "@/features/relationships/api";
import { NewOrganizationForm } from "@/features/relationships/new-organization-form";
import { OrganizationSearch } from "@/features/relationships/organization-search";

type AddOrganizationControlProps = {
  type: RelationshipType;
  /** 'Add Tool' or 'Add Competitor' (SPEC §2). */
  label: string;
};

type ControlState = "closed" | "search" | "create";

/**
 * SPEC §2 add-organization control for the Buddies and Block List pages: closed (a button), open
 * (search the platform's organizations) and a form for a company that is not listed yet.
 */
export function AddOrganizationControl({ type, label }: AddOrganizationControlProps) {
  const [state, setState] = useState<ControlState>("closed");
  const add = useAddRelationship(type);

  if (state === "closed") {
    return (
      <Button onClick={() => setState("search")}>
        <Plus />
        {label}
      </Button>
    );
  }

  const submit = (input: AddOrganizationInput) => add.mutate(input, { onSuccess: () => setState("closed") });

  return (
    <Card data-testid="add-organization" className="w-full gap-4 py-4 sm:max-w-md">
      <CardHeader className="flex items-center justify-between px-4">
        <CardTitle>{label}</CardTitle>
        <Button
          variant="ghost"
          size="icon"
          className="size-8"
          aria-label="Cancel"
          onClick={() => setState("closed")}
        >
          <X />
        </Button>
      </CardHeader>
      <CardContent className="px-4">
        {state === "search" ? (
          <OrganizationSearch
            type={type}
            busy={add.isPending}
            onPick={({ id, name, website }) => submit({ organizationId: id, name, url: website })}
            onCreate={() => setState("create")}
          />
        ) : (
          <NewOrganizationForm
            submitLabel={label}
            busy={add.isPending}
            onSubmit={({ name, website }) => submit({ name, url: website })}
            onBack={() => setState("search")}
          />
        )}
      </CardContent>
    </Card>
  );
}
