import { logoPath } from "@shared/logo-path";
import { type QueryClient, useQuery } from "@tanstack/react-query";
import { Building2 } from "lucide-react";
import { useState } from "react";
import { cn } from "@/lib/utils";

/**
 * A logo's upload version lives in the query cache beside the data it belongs to: every OrgLogo
 * of that domain re-renders with the cache-busted URL at once (SPEC §2), and sign-out clears it
 * with everything else. The entry is never fetched (`enabled: false`); only set after an upload.
 */
function logoVersionKey(domain: string) {
  return [logoPath(domain), "version"] as const;
}

/** After an upload: show `/api/logos/{domain}.jpg?v={timestamp}` everywhere that domain appears. */
export function bumpLogoVersion(client: QueryClient, domain: string, version = Date.now()) {
  client.setQueryData(logoVersionKey(domain), version);
}

type OrgLogoProps = {
  domain: string;
  name: string;
  /** The server's website-derived logo path; null means no logo was uploaded (no request made). */
  logoUrl?: string | null;
  className?: string;
};

/** An organization's logo, or the Building2 placeholder when there is none or it fails to load. */
export function OrgLogo({ domain, name, logoUrl, className }: OrgLogoProps) {
  const { data: version } = useQuery<number>({ queryKey: logoVersionKey(domain), enabled: false });
  const [failedSrc, setFailedSrc] = useState<string | null>(null);

  let src: string | null = null;
  if (domain && version) src = logoPath(domain, version);
  else if (domain && logoUrl !== null) src = logoUrl ?? logoPath(domain);
  const showImage = src !== null && src !== failedSrc;

  return (
    <div
      data-testid="org-logo"
      className={cn(
        "flex size-10 shrink-0 items-center justify-center overflow-hidden rounded-md border bg-muted",
        className,
      )}
    >
      {showImage ? (
        <img
          src={src ?? undefined}
          alt={`${name} logo`}
          className="size-full object-contain"
          onError={() => setFailedSrc(src)}
        />
      ) : (
        <Building2
          data-testid="org-logo-placeholder"
          aria-hidden="true"
          className="size-1/2 text-muted-foreground"
        />
      )}
    </div>
  );
}
