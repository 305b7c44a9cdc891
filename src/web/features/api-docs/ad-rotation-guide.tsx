import { ADS_LIMIT_MAX } from "@shared/ads";
import {
  AD_WEIGHT_DAYS,
  AD_WEIGHT_MAX,
  AD_WEIGHT_MIN,
  AD_WEIGHT_SMOOTHING,
  adWeight,
} from "@shared/reciprocity";
import { Shuffle } from "lucide-react";
import { CodeBlock } from "@/components/code-block";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { BulletList } from "@/features/api-docs/bullet-list";
import { DocSection } from "@/features/api-docs/doc-section";

/** The tab the guide belongs in: the document's tag of `GET /api/ads`. */
export const AD_ROTATION_TAB = "Ads API";

/** The cache of eligible ads the weights are kept with (CONTRACT §6). */
const CACHE_MINUTES = 5;

export const AD_WEIGHT_FORMULA = `weight = clamp((received + ${AD_WEIGHT_SMOOTHING}) / (sent + ${AD_WEIGHT_SMOOTHING}), ${AD_WEIGHT_MIN}, ${AD_WEIGHT_MAX})`;

const WEIGHT_RULES = [
  `\`received\` is the clicks the Buddy's readers made on your ads, \`sent\` the clicks your readers made on the Buddy's ads, over the last ${AD_WEIGHT_DAYS} days (UTC, today included). Only counted clicks are added up: bots and repeats are not.`,
  `A Buddy with no history in the window has weight 1, and so does one that gave you as many clicks as you gave it. The ${AD_WEIGHT_SMOOTHING} added on both sides keep a handful of clicks from swinging it.`,
  `The weight never goes below ${AD_WEIGHT_MIN} or above ${AD_WEIGHT_MAX}: every Buddy stays in the rotation, and none takes it over.`,
] as const;

const DRAW_RULES = [
  "For each ad, Buddy first draws one of your Buddies that has an eligible ad, with a probability proportional to its weight, then one of that Buddy's eligible ads at random. A Buddy with many ads gets no larger share than one with a single ad.",
  `With \`limit\` above 1 (up to ${ADS_LIMIT_MAX}), a Buddy is not drawn again while other Buddies with ads remain; only when each has had its turn does a new round start.`,
  `The weights are read together with the eligible ads and cached with them for up to ${CACHE_MINUTES} minutes, so a click may take that long to change the draw.`,
  "Each partner's weight over the last 30 days is on the Overview's Partners table and on its Buddy page.",
] as const;

/** Received and sent clicks, and the weight they give: the formula at work, computed by the app's own `adWeight`. */
const EXAMPLES: readonly (readonly [received: number, sent: number, meaning: string])[] = [
  [0, 0, "No history: as any new Buddy"],
  [25, 25, "As much given as received"],
  [10, 0, "10 clicks received and none sent double it"],
  [0, 10, "10 clicks sent and none received halve it"],
  [50, 0, `Capped at ${AD_WEIGHT_MAX}`],
  [0, 90, `Floored at ${AD_WEIGHT_MIN}`],
];

const weightText = new Intl.NumberFormat("en-US", { maximumFractionDigits: 2 });

/**
 * CONTRACT §10 for whoever puts the Ads API in a newsletter: how the partner of each ad is chosen,
 * so that the Buddies who send you readers are shown more often to yours.
 */
export function AdRotationGuide() {
  return (
    <Card data-testid="ad-rotation-guide">
      <CardHeader>
        <CardTitle>
          <h2 className="flex items-center gap-2">
            <Shuffle aria-hidden="true" className="size-5" />
            How partners take turns
          </h2>
        </CardTitle>
        <CardDescription>
          The Ads API shows the ads of the Buddies who send you readers more often than the ads of those who
          only receive them. Each Buddy has a weight:
        </CardDescription>
      </CardHeader>
      <CardContent className="grid grid-cols-1 gap-5">
        <CodeBlock data-testid="ad-weight-formula">{AD_WEIGHT_FORMULA}</CodeBlock>
        <BulletList items={WEIGHT_RULES} />
        <DocSection title="Examples">
          <Table data-testid="ad-weight-examples">
            <TableHeader>
              <TableRow>
                <TableHead>received</TableHead>
                <TableHead>sent</TableHead>
                <TableHead>weight</TableHead>
                <TableHead>
                  <span className="sr-only">Meaning</span>
                </TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {EXAMPLES.map(([received, sent, meaning]) => (
                <TableRow key={`${received}-${sent}`}>
                  <TableCell className="font-mono text-xs tabular-nums">{received}</TableCell>
                  <TableCell className="font-mono text-xs tabular-nums">{sent}</TableCell>
                  <TableCell className="font-mono font-semibold text-xs tabular-nums">
                    {weightText.format(adWeight({ received, sent }))}
                  </TableCell>
                  <TableCell className="text-muted-foreground text-xs">{meaning}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </DocSection>
        <DocSection title="The draw">
          <BulletList items={DRAW_RULES} />
        </DocSection>
      </CardContent>
    </Card>
  );
}
