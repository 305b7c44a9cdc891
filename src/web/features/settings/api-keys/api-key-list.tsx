import type { ApiKey } from "@shared/api-keys";
import { formatKeyDate } from "@/features/settings/api-keys/format-key-date";
import { RevokeApiKeyButton } from "@/features/settings/api-keys/revoke-api-key-button";

/** SPEC §2: each key's name, masked key, created date and last use. */
export function ApiKeyList({ apiKeys }: { apiKeys: ApiKey[] }) {
  return (
    <ul aria-label="API keys" className="divide-y rounded-lg border">
      {apiKeys.map((apiKey) => (
        <li
          key={apiKey.id}
          data-testid="api-key-row"
          className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between"
        >
          <div className="grid min-w-0 gap-1">
            <p className="truncate font-medium">{apiKey.name}</p>
            <code data-testid="api-key-masked" className="truncate font-mono text-muted-foreground text-sm">
              {apiKey.key}
            </code>
            <p className="text-muted-foreground text-xs">
              Created {formatKeyDate(apiKey.createdAt)} · Last used {formatKeyDate(apiKey.lastUsed)}
            </p>
          </div>
          <RevokeApiKeyButton apiKey={apiKey} />
        </li>
      ))}
    </ul>
  );
}
