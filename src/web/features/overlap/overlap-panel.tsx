import {
  OVERLAP_MESSAGES,
  OVERLAP_MIN_DOMAINS,
  OVERLAP_POPULATION_LABELS,
  OVERLAP_POPULATIONS,
  type OverlapPopulation,
} from "@shared/overlap";
import { parseDomainList } from "@shared/overlap-domains";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { QueryError } from "@/components/query-error";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { FormMessage } from "@/components/ui/form-message";
import { Label } from "@/components/ui/label";
import { Switch } from "@/components/ui/switch";
import { Textarea } from "@/components/ui/textarea";
import { toast } from "@/components/ui/toast";
import { apiRequest, errorMessage } from "@/lib/api-client";
import { invalidateApiPaths } from "@/lib/query-client";
import { saveFile } from "@/lib/save-file";
import {
  OVERLAP_PATH,
  useDiscoverable,
  useOverlapRuns,
  useOverlapSettings,
  useSetDiscovery,
  useStartComparison,
} from "./api";
import { FileTextPicker } from "./file-text-picker";
import { overlapErrorMessage } from "./overlap-errors";
import { OverlapRunsTable } from "./overlap-runs-table";
import { exportAll, importAll, readLists, removeList } from "./overlap-store";

const LOCAL_LISTS = "overlap-local-lists";

/** The lists this browser holds, by population (IndexedDB is read as a query, so saving refreshes it). */
export function useLocalLists(organizationId: string) {
  return useQuery({
    queryKey: [LOCAL_LISTS, organizationId],
    queryFn: async () => new Map((await readLists(organizationId)).map((list) => [list.population, list])),
  });
}

function ListEditor({
  organizationId,
  population,
}: {
  organizationId: string;
  population: OverlapPopulation;
}) {
  const client = useQueryClient();
  const id = useId();
  const local = useLocalLists(organizationId);
  const held = local.data?.get(population);
  const [text, setText] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const label = OVERLAP_POPULATION_LABELS[population];

  async function save(source: string) {
    const parsed = parseDomainList(source);
    if (parsed.domains.length < OVERLAP_MIN_DOMAINS) {
      setError(`${OVERLAP_MESSAGES.notEnoughDomains} (found ${parsed.domains.length})`);
      return;
    }
    setSaving(true);
    setError(null);
    try {
      const engine = await import("./overlap-engine");
      await engine.keepList(organizationId, population, parsed.domains);
      setText("");
      const skipped = parsed.skipped ? `, ${parsed.skipped} entries were not domains` : "";
      toast.success(
        `${label}: ${parsed.domains.length.toLocaleString("en-US")} domains kept in this browser${skipped}`,
      );
    } catch (cause) {
      setError(errorMessage(cause, "Failed to save the list"));
    } finally {
      setSaving(false);
      await client.invalidateQueries({ queryKey: [LOCAL_LISTS] });
      await invalidateApiPaths(client, OVERLAP_PATH);
    }
  }

  // Buddy first: partners stop starting runs against a list this browser no longer answers for.
  async function remove() {
    try {
      await apiRequest(`/api/overlap/populations/${population}`, { method: "DELETE" });
      await removeList(organizationId, population);
      toast.success(`${label} removed`);
    } catch (cause) {
      toast.error(errorMessage(cause, "Failed to remove the list"));
    }
    await client.invalidateQueries({ queryKey: [LOCAL_LISTS] });
    await invalidateApiPaths(client, OVERLAP_PATH);
  }

  return (
    <div className="grid gap-2 rounded-md border p-4" data-testid={`overlap-list-${population}`}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 className="font-medium">{label}</h3>
        <span className="text-muted-foreground text-sm">
          {held
            ? `${held.domains.length.toLocaleString("en-US")} domains in this browser, updated ${new Date(held.updatedAt).toLocaleDateString("en-US")}`
            : "Not in this browser"}
        </span>
      </div>
      <Label htmlFor={`${id}-text`}>Paste domains or a CSV</Label>
      <Textarea
        id={`${id}-text`}
        rows={4}
        value={text}
        placeholder={"acme.com\nhttps://www.example.co.uk\n…"}
        onChange={(event) => setText(event.target.value)}
      />
      <div className="flex flex-wrap items-center gap-2">
        <Button size="sm" disabled={saving || !text.trim()} onClick={() => void save(text)}>
          {held ? `Replace ${label.toLowerCase()}` : `Save ${label.toLowerCase()}`}
        </Button>
        <FileTextPicker label="Choose CSV file" accept=".csv,.txt,text/csv,text/plain" onText={save} />
        {held ? (
          <Button size="sm" variant="ghost" onClick={() => void remove()}>
            Remove
          </Button>
        ) : null}
      </div>
      {error ? <FormMessage>{error}</FormMessage> : null}
    </div>
  );
}

function DeviceTransfer({ organizationId }: { organizationId: string }) {
  const client = useQueryClient();
  return (
    <div className="flex flex-wrap items-center gap-2">
      <Button
        size="sm"
        variant="outline"
        onClick={async () => {
          const data = await exportAll(organizationId);
          saveFile(
            new Blob([JSON.stringify(data)], { type: "application/json" }),
            "buddy-overlap-lists.json",
          );
        }}
      >
        Export lists and keys
      </Button>
      <FileTextPicker
        label="Import on this device"
        accept=".json,application/json"
        onText={async (text) => {
          try {
            const lists = await importAll(organizationId, JSON.parse(text));
            toast.success(`Imported ${lists.length} ${lists.length === 1 ? "list" : "lists"}`);
          } catch (cause) {
            toast.error(overlapErrorMessage(cause, "This is not a Buddy overlap export"));
          }
          await client.invalidateQueries({ queryKey: [LOCAL_LISTS] });
        }}
      />
    </div>
  );
}

function Discovery({ organizationId }: { organizationId: string }) {
  const settings = useOverlapSettings();
  const setDiscovery = useSetDiscovery();
  const enabled = settings.data?.discovery ?? false;
  const discoverable = useDiscoverable(enabled);
  const start = useStartComparison(organizationId);
  const switchId = useId();

  return (
    <div className="grid gap-3">
      <div className="flex items-center gap-3">
        <Switch
          id={switchId}
          checked={enabled}
          disabled={settings.isPending || setDiscovery.isPending}
          onCheckedChange={(checked) => setDiscovery.mutate(checked)}
        />
        <Label htmlFor={switchId}>Open to overlap discovery</Label>
      </div>
      <p className="text-muted-foreground text-sm">
        Proven organizations that are open to discovery can compare customer lists with each other without
        being Buddies; the ones you share most customers with come first in your suggestions.
      </p>
      {enabled && discoverable.data ? (
        discoverable.data.organizations.length === 0 ? (
          <p className="text-muted-foreground text-sm">No other organization is open to discovery yet.</p>
        ) : (
          <ul className="grid gap-2">
            {discoverable.data.organizations.map((organization) => (
              <li key={organization.id} className="flex flex-wrap items-center justify-between gap-2 text-sm">
                <span>
                  {organization.name} <span className="text-muted-foreground">({organization.domain})</span>
                </span>
                <Button
                  size="sm"
                  variant="outline"
                  disabled={start.isPending}
                  onClick={() =>
                    start.mutate({
                      partnerId: organization.id,
                      partnerName: organization.name,
                      population: "customers",
                      partnerPopulation: "customers",
                    })
                  }
                >
                  Compare customers
                </Button>
              </li>
            ))}
          </ul>
        )
      ) : null}
    </div>
  );
}

/**
 * Settings → Account overlap (CONTRACT §11), for admins: the lists this browser holds, moving them
 * to another device, discovery, and the runs so far.
 */
export function OverlapPanel({ organizationId }: { organizationId: string }) {
  const runs = useOverlapRuns();
  return (
    <div className="grid gap-6">
      <Card>
        <CardHeader>
          <CardTitle>Account overlap</CardTitle>
          <CardDescription>
            Learn how many accounts you share with your Buddies without anyone holding both lists. Your lists
            stay in this browser: Buddy receives only points blinded with a key that never leaves it.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          {OVERLAP_POPULATIONS.map((population) => (
            <ListEditor key={population} organizationId={organizationId} population={population} />
          ))}
          <DeviceTransfer organizationId={organizationId} />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Discovery</CardTitle>
        </CardHeader>
        <CardContent>
          <Discovery organizationId={organizationId} />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Runs</CardTitle>
          <CardDescription>
            Each run is also in the security log. Unfinished runs expire after 7 days.
          </CardDescription>
        </CardHeader>
        <CardContent>
          {runs.isError ? (
            <QueryError title="Failed to load runs" error={runs.error} />
          ) : (
            <OverlapRunsTable runs={runs.data?.runs ?? []} />
          )}
        </CardContent>
      </Card>
    </div>
  );
}
