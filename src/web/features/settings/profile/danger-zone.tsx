import { DELETION_MESSAGES } from "@shared/deletion";
import { type FormEvent, useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Spinner } from "@/components/ui/spinner";
import {
  useRequestAccountDeletion,
  useRequestOrganizationDeletion,
} from "@/features/settings/profile/deletion-api";

/** A request's answer, read out where the button was: the next step is in the mailbox. */
function Sent({ message }: { message: string }) {
  return (
    <p role="status" className="rounded-md bg-muted px-3 py-2 text-sm">
      {message}
    </p>
  );
}

/** Settings → profile, for admins: deleting the organization, after typing its name (issue 38). */
export function DeleteOrganizationCard({ organizationName }: { organizationName: string }) {
  const request = useRequestOrganizationDeletion();
  const [typed, setTyped] = useState("");
  const inputId = useId();
  const matches = typed.trim() === organizationName.trim();
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (matches) request.mutate(typed);
  };
  return (
    <Card className="border-destructive/40">
      <CardHeader>
        <CardTitle>Delete organization</CardTitle>
        <CardDescription>
          Deletes {organizationName}, its members' accounts, API keys, webhooks, ads, links and every click
          and conversion it recorded, for good. Your partners keep their own totals. We e-mail you a link to
          confirm.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {request.isSuccess ? (
          <Sent message={request.data.message} />
        ) : (
          <form
            onSubmit={onSubmit}
            noValidate
            className="grid gap-3 sm:max-w-md"
            aria-label="Delete organization"
          >
            <Label htmlFor={inputId}>Type {organizationName} to confirm</Label>
            <Input
              id={inputId}
              value={typed}
              autoComplete="off"
              onChange={(event) => setTyped(event.target.value)}
              aria-describedby={typed && !matches ? `${inputId}-hint` : undefined}
            />
            {typed && !matches ? (
              <p id={`${inputId}-hint`} className="text-muted-foreground text-sm">
                {DELETION_MESSAGES.nameMismatch}
              </p>
            ) : null}
            <Button
              type="submit"
              variant="destructive"
              disabled={!matches || request.isPending}
              className="w-fit"
            >
              {request.isPending ? <Spinner /> : null}
              Delete organization
            </Button>
          </form>
        )}
      </CardContent>
    </Card>
  );
}

/** Settings → profile, for everyone: deleting one's own account (issue 38). */
export function DeleteAccountCard({ isAdmin }: { isAdmin: boolean }) {
  const request = useRequestAccountDeletion();
  return (
    <Card>
      <CardHeader>
        <CardTitle>Delete your account</CardTitle>
        <CardDescription>
          Deletes your account and everything that names you, for good; your organization stays.
          {isAdmin ? " If you are its only admin, make another member an admin first." : ""} We e-mail you a
          link to confirm.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {request.isSuccess ? (
          <Sent message={request.data.message} />
        ) : (
          <Button
            type="button"
            variant="outline"
            className="w-fit"
            disabled={request.isPending}
            onClick={() => request.mutate()}
          >
            {request.isPending ? <Spinner /> : null}
            Delete my account
          </Button>
        )}
      </CardContent>
    </Card>
  );
}
