import { Info } from "lucide-react";
import { Link } from "react-router";
import type { DocumentedOperation } from "@/features/api-docs/openapi-operations";
import { paths } from "@/lib/paths";

export const API_KEYS_SETTINGS_HREF = `${paths.settings}?tab=api`;

function OperationList({ operations }: { operations: DocumentedOperation[] }) {
  return (
    <ul className="grid gap-1 pl-1">
      {operations.map((operation) => (
        <li key={operation.id} className="flex flex-wrap items-baseline gap-x-2">
          <code className="font-mono text-xs">{operation.id}</code>
          <span className="text-muted-foreground">{operation.summary}</span>
        </li>
      ))}
    </ul>
  );
}

/**
 * SPEC §6 says both that every call needs a key and that the conversion GET needs none. The
 * document settles it per operation (`security`), and this note lists both groups from it: a key
 * is for server-to-server calls only, because anything in a web page is public.
 */
export function ApiKeyNote({ operations }: { operations: DocumentedOperation[] }) {
  const keyed = operations.filter((operation) => operation.needsApiKey);
  const keyless = operations.filter((operation) => !operation.needsApiKey);
  const header = keyed.find((operation) => operation.apiKeyHeader)?.apiKeyHeader;

  return (
    <aside
      data-testid="api-key-note"
      aria-label="When to send an API key"
      className="grid gap-3 rounded-xl border border-sky-200 bg-sky-50 p-4 text-sm dark:border-sky-900 dark:bg-sky-950/40"
    >
      <div className="flex items-center gap-2 font-semibold">
        <Info aria-hidden="true" className="size-4 text-sky-700 dark:text-sky-300" />
        When to send an API key
      </div>
      {keyed.length > 0 ? (
        <div className="grid gap-1.5">
          <p>
            Server-to-server calls need your API key
            {header ? (
              <>
                {" "}
                in the <code className="font-mono">{header}</code> header
              </>
            ) : null}
            :
          </p>
          <OperationList operations={keyed} />
        </div>
      ) : null}
      {keyless.length > 0 ? (
        <div className="grid gap-1.5">
          <p>
            Calls made from a web page (the conversion pixel, tracked links and the install scripts) need no
            key. Never put an API key in a web page: anyone can read it there.
          </p>
          <p>
            For the same reason the pixel records leads only: a call that carries{" "}
            <code className="font-mono">value</code>, <code className="font-mono">currency</code>,{" "}
            <code className="font-mono">eventId</code> or <code className="font-mono">customerId</code> is
            refused. Send revenue, your event ids and your customer ids with your key (
            <code className="font-mono">POST /api/marketing/conversion</code>) or connect Stripe.
          </p>
          <OperationList operations={keyless} />
        </div>
      ) : null}
      <p>
        Create and revoke keys in{" "}
        <Link
          to={API_KEYS_SETTINGS_HREF}
          className="font-medium text-primary underline-offset-4 hover:underline"
        >
          Settings → API keys
        </Link>
        .
      </p>
    </aside>
  );
}
