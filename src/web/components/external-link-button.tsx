import { ExternalLink } from "lucide-react";
import { Button } from "@/components/ui/button";
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
    <Button asChild variant="ghost" size="icon" className={cn("size-8", className)}>
      <a href={externalHref(url)} target="_blank" rel="noopener noreferrer" aria-label={label} title={label}>
        <ExternalLink />
      </a>
    </Button>
  );
}
