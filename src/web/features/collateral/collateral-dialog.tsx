import { zodResolver } from "@hookform/resolvers/zod";
import {
  COLLATERAL_CTA_TEXT_MAX,
  COLLATERAL_DESCRIPTION_MAX,
  COLLATERAL_TITLE_MAX,
  type Collateral,
  createCollateralSchema,
} from "@shared/collateral";
import { useForm, useWatch } from "react-hook-form";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { FormDialogFooter } from "@/components/ui/form-dialog-footer";
import { FormField } from "@/components/ui/form-field";
import { FormTextarea } from "@/components/ui/form-textarea";
import { useGenerateCollateralDraft, useSaveCollateral } from "@/features/collateral/api";
import { CharacterCount } from "@/features/collateral/character-count";
import { collateralFormValues, withGeneratedContent } from "@/features/collateral/collateral-form";
import { DRAFT_NOTE } from "@/features/collateral/collateral-status";
import { GenerateWithAiButton } from "@/features/collateral/generate-with-ai-button";
import { ImageUrlField } from "@/features/collateral/image-url-field";
import { StatusSelectField } from "@/features/collateral/status-select-field";

type CollateralDialogProps = {
  /** The item being edited, or null for a new one. */
  collateral: Collateral | null;
  onClose: () => void;
};

/**
 * SPEC §2 New Collateral dialog (edit mode when given an item). Mounted only while open, so every
 * opening starts from fresh values and a fresh 'Generate with AI' button.
 */
export function CollateralDialog({ collateral, onClose }: CollateralDialogProps) {
  const editing = collateral !== null;
  const save = useSaveCollateral();
  const generate = useGenerateCollateralDraft();
  const form = useForm({
    resolver: zodResolver(createCollateralSchema),
    defaultValues: collateralFormValues(collateral),
  });
  const [name, description, ctaText, status] = useWatch({
    control: form.control,
    name: ["name", "description", "ctaText", "status"],
  });

  // SPEC §2: the dialog cannot be closed while generating (Esc, overlay, ×, Cancel all end here).
  const requestClose = () => {
    if (!generate.isPending) onClose();
  };
  const generateContent = () =>
    generate.mutate(undefined, {
      onSuccess: (generated) => form.reset(withGeneratedContent(form.getValues(), generated)),
    });
  const onSubmit = form.handleSubmit((values) =>
    save.mutate({ id: collateral?.id, values }, { onSuccess: onClose }),
  );

  return (
    <Dialog open onOpenChange={(open) => (open ? undefined : requestClose())}>
      <DialogContent className="max-h-[calc(100dvh-2rem)] overflow-y-auto sm:max-w-xl">
        <DialogHeader>
          <DialogTitle>{editing ? "Edit Collateral" : "New Collateral"}</DialogTitle>
          <DialogDescription>
            {editing
              ? "Update this call-to-action ad."
              : "Create a call-to-action ad your Buddies can share with their customers."}
          </DialogDescription>
        </DialogHeader>
        <div>
          <GenerateWithAiButton
            pending={generate.isPending}
            failed={generate.isError}
            onClick={generateContent}
          />
        </div>
        <form
          aria-label={editing ? "Edit Collateral" : "New Collateral"}
          noValidate
          className="grid gap-4"
          onSubmit={onSubmit}
        >
          <FormField
            control={form.control}
            name="name"
            label="Title"
            maxLength={COLLATERAL_TITLE_MAX}
            labelAction={<CharacterCount value={name} max={COLLATERAL_TITLE_MAX} />}
          />
          <FormTextarea
            control={form.control}
            name="description"
            label="Description"
            rows={3}
            maxLength={COLLATERAL_DESCRIPTION_MAX}
            labelAction={<CharacterCount value={description} max={COLLATERAL_DESCRIPTION_MAX} />}
          />
          <FormField
            control={form.control}
            name="ctaText"
            label="Call to Action Text"
            placeholder="e.g. Start free trial"
            maxLength={COLLATERAL_CTA_TEXT_MAX}
            labelAction={<CharacterCount value={ctaText} max={COLLATERAL_CTA_TEXT_MAX} />}
          />
          <FormField
            control={form.control}
            name="ctaUrl"
            label="Call to Action URL"
            type="url"
            inputMode="url"
            placeholder="https://example.com/signup"
          />
          <ImageUrlField control={form.control} />
          {editing ? <StatusSelectField control={form.control} /> : null}
          {status === "draft" ? (
            <p
              data-testid="draft-note"
              className="rounded-md bg-muted px-3 py-2 text-muted-foreground text-sm"
            >
              {DRAFT_NOTE}
              {editing ? null : " Publish it from its card once it is ready."}
            </p>
          ) : null}
          <FormDialogFooter
            submitLabel={editing ? "Update" : "Create"}
            pending={save.isPending}
            submitDisabled={generate.isPending}
            cancelDisabled={generate.isPending}
          />
        </form>
      </DialogContent>
    </Dialog>
  );
}
