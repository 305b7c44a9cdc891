import type { Collateral } from "@shared/collateral";
import { Skeleton } from "@/components/ui/skeleton";
import { CollateralImage } from "@/features/collateral/collateral-image";
import { displayCtaUrl } from "@/features/collateral/collateral-urls";

type CollateralPreviewProps = {
  collateral: Pick<Collateral, "name" | "description" | "ctaText" | "ctaUrl" | "imageUrl">;
  /**
   * The link a recipient gets, where it is not the call to action itself: on a Buddy's page the
   * short tracked link that will be shared (issue 37), null while it is being made.
   */
  linkUrl?: string | null;
};

/**
 * How the ad reads to a recipient (SPEC §2 preview): image, name, description, where the link
 * goes and the call-to-action button. The button only looks like one: previews do not navigate.
 */
export function CollateralPreview({ collateral, linkUrl }: CollateralPreviewProps) {
  const { name, description, ctaText, ctaUrl, imageUrl } = collateral;
  const shown = linkUrl === undefined ? ctaUrl : linkUrl;
  return (
    <div data-testid="collateral-preview" className="grid gap-3">
      {imageUrl ? <CollateralImage url={imageUrl} alt={name} /> : null}
      <div className="grid gap-1">
        <h3 className="font-semibold leading-snug">{name}</h3>
        <p className="text-muted-foreground text-sm">{description}</p>
      </div>
      {shown === null ? (
        <Skeleton data-testid="collateral-link-pending" className="h-4 w-40" />
      ) : (
        <p data-testid="collateral-cta-url" className="truncate text-muted-foreground text-xs" title={shown}>
          {displayCtaUrl(shown)}
        </p>
      )}
      <span
        data-testid="collateral-cta"
        className="inline-flex h-8 w-fit items-center rounded-md bg-primary px-3 font-medium text-primary-foreground text-sm"
      >
        {ctaText}
      </span>
    </div>
  );
}
