import { SECURITY_LOG_ACTIONS, SECURITY_LOG_LABELS, SECURITY_LOG_PAGE_SIZE } from "@shared/security-log";
import { ShieldCheck } from "lucide-react";
import { Link } from "react-router";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { BulletList } from "@/features/api-docs/bullet-list";
import { DocSection } from "@/features/api-docs/doc-section";
import { FieldsTable } from "@/features/api-docs/fields-table";
import { EndpointLine } from "@/features/api-docs/method-badge";
import { paths } from "@/lib/paths";

const RULES = [
  `Newest first, \`limit\` entries a page (1 to ${SECURITY_LOG_PAGE_SIZE}, ${SECURITY_LOG_PAGE_SIZE} by default). Pass the answer's \`nextCursor\` as \`before\` for the older ones; it is null on the last page.`,
  "Entries are kept 180 days.",
  "Admins only: with an admin's dashboard session token as Authorization: Bearer. API keys are refused, members get 403.",
];

const FIELDS = [
  ["id", "The entry's id."],
  ["action", "What was done: one of the actions below."],
  ["actorEmail", "Who did it, by their address at the time; null when the log cannot name them."],
  [
    "target",
    "What it was done to: a key's name, an endpoint's URL, a person's address and role, a domain and how it was proved; null for sign-ins, password resets and Stripe.",
  ],
  ["ipAddress", "The client address the request came from."],
  ["createdAt", "When (ISO 8601, UTC)."],
] as const;

const ACTIONS = SECURITY_LOG_ACTIONS.map((action) => [action, SECURITY_LOG_LABELS[action]] as const);

/** CONTRACT §3: the security log admins read in Settings, and through the dashboard's API. */
export function SecurityLogGuide() {
  return (
    <Card data-testid="security-log-guide">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <ShieldCheck aria-hidden="true" className="size-5" />
          Security log
        </CardTitle>
        <CardDescription>
          Who signed in, reset a password or changed keys, webhooks, the team, Stripe or your domain, when and
          from where. Admins read it in{" "}
          <Link
            to={`${paths.settings}?tab=security-log`}
            className="text-primary underline-offset-4 hover:underline"
          >
            Settings → Security log
          </Link>
          .
        </CardDescription>
      </CardHeader>
      <CardContent className="grid grid-cols-1 gap-5">
        <EndpointLine method="get">/api/security-log?limit=50&amp;before=…</EndpointLine>
        <BulletList items={RULES} />
        <DocSection title="Entry">
          <FieldsTable heading="Field" rows={FIELDS} testId="security-log-fields" />
        </DocSection>
        <DocSection title="Actions">
          <FieldsTable heading="action" rows={ACTIONS} testId="security-log-actions" />
        </DocSection>
      </CardContent>
    </Card>
  );
}
