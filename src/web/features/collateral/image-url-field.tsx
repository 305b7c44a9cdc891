import { useId } from "react";
import { useController } from "react-hook-form";
import { FormMessage } from "@/components/ui/form-message";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import type { CollateralFormControl } from "@/features/collateral/collateral-form";
import { CollateralImage } from "@/features/collateral/collateral-image";
import { normalizeImageUrl } from "@/features/collateral/collateral-urls";

type ImageUrlFieldProps = {
  control: CollateralFormControl;
};

/**
 * SPEC §2/§5 Image URL: a URL input with a live preview (a placeholder while the value is not a
 * usable URL or the image fails), completed to a full URL when the field is left.
 */
export function ImageUrlField({ control }: ImageUrlFieldProps) {
  const { field, fieldState } = useController({ control, name: "imageUrl" });
  const id = useId();
  const messageId = `${id}-message`;
  const error = fieldState.error?.message;
  const value = field.value ?? "";

  return (
    <div data-slot="form-field" className="grid gap-2">
      <Label htmlFor={id}>Image URL</Label>
      <Input
        id={id}
        type="url"
        inputMode="url"
        placeholder="https://example.com/image.png"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? messageId : undefined}
        name={field.name}
        ref={field.ref}
        value={value}
        disabled={field.disabled}
        onChange={field.onChange}
        onBlur={() => {
          const normalized = normalizeImageUrl(value);
          if (normalized !== value) field.onChange(normalized);
          field.onBlur();
        }}
      />
      <FormMessage id={messageId}>{error}</FormMessage>
      <div data-testid="image-preview">
        <CollateralImage url={value} alt="Image preview" className="max-h-40" />
      </div>
    </div>
  );
}
