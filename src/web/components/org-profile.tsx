import type { ReactNode } from "react";
import { externalHref } from "@/components/external-link-button";
import { OrgLogo } from "@/components/org-logo";
import { cn } from "@/lib/utils";

/** Shown for a profile field nobody filled in. */
export const NOT_SET = "—";

/** SPEC §2: a size is followed by 'employees'. */
export function formatSize(size: number | null): string {
  return size === null ? NOT_SET : `${size} employees`;
}

export function ProfileFact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-1">
      <dt className="text-muted-foreground text-sm">{label}</dt>
      <dd className="text-sm">{children}</dd>
    </div>
  );
}

type IdentityOrg = { domain: string; name: string; logoUrl: string | null; website: string };

/** Logo, name line and website link: the head of every organization profile. */
export function OrgIdentity({
  org,
  title,
  logoClassName,
}: {
  org: IdentityOrg;
  title: ReactNode;
  logoClassName?: string;
}) {
  return (
    <div className="flex items-center gap-4">
      <OrgLogo
        domain={org.domain}
        name={org.name}
        logoUrl={org.logoUrl}
        className={cn("size-14", logoClassName)}
      />
      <div className="grid min-w-0 gap-1">
        {title}
        <a
          href={externalHref(org.website)}
          target="_blank"
          rel="noopener noreferrer"
          className="truncate text-primary text-sm underline-offset-4 hover:underline"
        >
          {org.website}
        </a>
      </div>
    </div>
  );
}
