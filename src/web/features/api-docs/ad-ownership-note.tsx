import { ShieldCheck } from "lucide-react";

/**
 * CONTRACT §4 and §5, for whoever serves ads from this API: which ads it can ever return, so a
 * partner knows an ad's company really stands behind it.
 */
export function AdOwnershipNote() {
  return (
    <aside
      data-testid="ad-ownership-note"
      aria-label="Whose ads are served"
      className="grid gap-2 rounded-xl border border-emerald-200 bg-emerald-50 p-4 text-sm dark:border-emerald-900 dark:bg-emerald-950/40"
    >
      <div className="flex items-center gap-2 font-semibold">
        <ShieldCheck aria-hidden="true" className="size-4 text-emerald-700 dark:text-emerald-300" />
        Whose ads are served
      </div>
      <ul className="grid list-disc gap-1 pl-5">
        <li>
          A company is owned on Buddy only by someone who proved they control its domain: a verified e-mail
          address at the domain (free e-mail providers never count), a buddy-site-verification meta tag on its
          home page, or a buddy-site-verification DNS TXT record. Once proven, it is never handed to anyone
          else; others with that domain join as pending members.
        </li>
        <li>
          Only an organization whose domain is proven publishes ads; until then none of its ads is served.
        </li>
        <li>
          An ad's call-to-action and image always point at its company's own domain or a subdomain of it,
          checked when the ad is written and again when it is served or followed.
        </li>
      </ul>
    </aside>
  );
}
