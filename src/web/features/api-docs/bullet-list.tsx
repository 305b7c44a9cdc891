import { DocText } from "@/features/api-docs/doc-text";

/** A guide's rules, one sentence each, with `names` shown as code. */
export function BulletList({ items }: { items: readonly string[] }) {
  return (
    <ul className="grid list-disc gap-1.5 pl-5 text-sm leading-relaxed">
      {items.map((item) => (
        <li key={item}>
          <DocText text={item} />
        </li>
      ))}
    </ul>
  );
}
