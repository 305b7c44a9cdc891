import { ImageOff } from "lucide-react";
import { useState } from "react";
import { previewImageSrc } from "@/features/collateral/collateral-urls";
import { cn } from "@/lib/utils";

type CollateralImageProps = {
  /** Any stored or typed value; an unusable one shows the placeholder without a request. */
  url: string | null | undefined;
  alt: string;
  className?: string;
};

/** A collateral image, or a placeholder when there is none, it is not a URL or it fails to load. */
export function CollateralImage({ url, alt, className }: CollateralImageProps) {
  const src = previewImageSrc(url);
  // Remembering which src failed (not a flag) lets a corrected URL try again at once.
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const showImage = src !== null && src !== failedSrc;

  return (
    <div
      className={cn(
        "flex aspect-[2/1] w-full items-center justify-center overflow-hidden rounded-md border bg-muted",
        className,
      )}
    >
      {showImage ? (
        <img src={src} alt={alt} className="size-full object-cover" onError={() => setFailedSrc(src)} />
      ) : (
        <ImageOff
          data-testid="collateral-image-placeholder"
          aria-hidden="true"
          className="size-8 text-muted-foreground"
        />
      )}
    </div>
  );
}
