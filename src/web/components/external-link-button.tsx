import { ExternalLink } from "lucide-react";
import { buttonVariants } from "@/components/ui/button";
import { cn } from "@/lib/utils";

/** Stored websites may be bare domains (`acme.com`); a link needs the scheme. */
export function externalHref(url: string): string {
  return /^https?:\/\//i.test(url) ? url : `https://${url}`;
}

type ExternalLinkButtonProps = {
  url: string;
  /** The organization's name, for the accessible label. */
  name: string;
  className?: string;
};

/** An icon button opening an organization's website in a new tab. */
export function ExternalLinkButton({ url, name, className }: ExternalLinkButtonProps) {
  const label = `Visit ${name}`;
  return (
    <a
      href={externalHref(url)}
      target="_blank"
      rel="noopener noreferrer"
      aria-label={label}
      title={label}
      className={cn(buttonVariants({ variant: "ghost", size: "icon" }), "size-8", className)}
    >
      <ExternalLink />
    </a>
  );
}
