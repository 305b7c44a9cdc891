import { CONVERSION_TYPES } from "@shared/tracking";
import { Link } from "react-router";
import { CodeBlock } from "@/components/code-block";
import { QueryError } from "@/components/query-error";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { useInstallSettings } from "@/features/settings/install/api";
import { ConnectStripeCard } from "@/features/settings/install/connect-stripe-card";
import { CopyScriptButton } from "@/features/settings/install/copy-script-button";
import {
  CONVERSION_CALL_EXAMPLE,
  clickScriptTag,
  conversionScriptTag,
  serverConversionExample,
} from "@/features/settings/install/install-snippets";
import { paths } from "@/lib/paths";
import { useCurrentUser } from "@/lib/session";

/**
 * Settings → Install (SPEC §2): the click-tracking and conversion-tracking scripts, each ready to
 * paste with the organization's id and this Buddy's PUBLIC_URL (CONTRACT §5), which the server
 * answers: the page may be open at another address (a proxy, an internal host name).
 */
export function InstallPanel() {
  const settings = useInstallSettings();
  const { user } = useCurrentUser();

  if (settings.isPending) {
    return (
      <div role="status" aria-label="Loading" className="grid gap-4">
        <Skeleton className="h-48 w-full rounded-xl" />
        <Skeleton className="h-64 w-full rounded-xl" />
      </div>
    );
  }
  if (settings.isError) {
    return (
      <QueryError
        title="Failed to fetch organization data"
        error={settings.error}
        onRetry={() => settings.refetch()}
      />
    );
  }

  const { publicUrl: origin, organizationId } = settings.data;
  const clickScript = clickScriptTag(origin, organizationId);
  const conversionScript = conversionScriptTag(origin, organizationId);

  return (
    <div className="grid gap-4">
      <Card data-testid="click-script">
        <CardHeader>
          <CardTitle>Click Tracking Script</CardTitle>
          <CardDescription>
            Add this script to all of your landing pages. When a visitor arrives through a Buddy's link, it
            keeps the click id so a later conversion is credited to that Buddy.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-3">
          <CodeBlock aria-label="Click tracking script">{clickScript}</CodeBlock>
          <CopyScriptButton script={clickScript} />
          <ul className="list-disc space-y-1 pl-5 text-muted-foreground text-sm">
            <li>The script is pre-configured with your organization id.</li>
            <li>Click ids expire after 30 days.</li>
          </ul>
        </CardContent>
      </Card>

      <Card data-testid="conversion-script">
        <CardHeader>
          <CardTitle>Conversion Tracking Script</CardTitle>
          <CardDescription>
            Add this script to your conversion confirmation pages, such as the page shown after sign-up. It
            records the conversion for the Buddy that sent the visitor.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-3">
          <CodeBlock aria-label="Conversion tracking script">{conversionScript}</CodeBlock>
          <CopyScriptButton script={conversionScript} />
          <ul className="list-disc space-y-1 pl-5 text-muted-foreground text-sm">
            <li>The script is pre-configured with your organization id.</li>
            <li>
              Change <code className="font-mono">data-type</code> to the kind of conversion:{" "}
              {CONVERSION_TYPES.join(", ")}.
            </li>
            <li>It needs the click tracking script on your landing pages.</li>
            <li>
              It records leads only: anyone can see a web page, so a value, a currency, your order id or your
              customer id never go through it. Send those from your server, below.
            </li>
          </ul>
          <div className="grid gap-2">
            <p className="font-medium text-sm">Conversions without a page load</p>
            <p className="text-muted-foreground text-sm">
              Once the script is on the page, call it from your own code with the conversion type:
            </p>
            <CodeBlock aria-label="Conversion call">{CONVERSION_CALL_EXAMPLE}</CodeBlock>
          </div>
          <div className="grid gap-2">
            <p className="font-medium text-sm">From your server</p>
            <p className="text-muted-foreground text-sm">
              Send the click id with an API key: the only way, with Stripe below, to record revenue (value and
              currency), your own event id and your customer id.{" "}
              <Link
                to={`${paths.settings}?tab=api`}
                className="text-primary underline-offset-4 hover:underline"
              >
                Manage API keys
              </Link>{" "}
              ·{" "}
              <Link to={paths.apiDocs} className="text-primary underline-offset-4 hover:underline">
                View API documentation
              </Link>
            </p>
            <CodeBlock aria-label="Server conversion request">{serverConversionExample(origin)}</CodeBlock>
          </div>
        </CardContent>
      </Card>

      <ConnectStripeCard canEdit={user?.role === "admin"} />
    </div>
  );
}
