import { ADS_LIMIT_MAX } from "@shared/ads";
import {
  AD_WEIGHT_CLICKS_MAX,
  AD_WEIGHT_DAYS,
  AD_WEIGHT_MAX,
  AD_WEIGHT_MIN,
  AD_WEIGHT_PROOF_MAX,
  AD_WEIGHT_PROOF_MIN,
  AD_WEIGHT_PROOF_SMOOTHING,
  AD_WEIGHT_SMOOTHING,
  adWeight,
} from "@shared/reciprocity";
import type { SentReceived } from "@shared/tracking";
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

export const AD_WEIGHT_FORMULA = [
  `clicks = clamp((clicks received + ${AD_WEIGHT_SMOOTHING}) / (clicks sent + ${AD_WEIGHT_SMOOTHING}), ${AD_WEIGHT_MIN}, ${AD_WEIGHT_CLICKS_MAX})`,
  `proof  = clamp((proven received + ${AD_WEIGHT_PROOF_SMOOTHING}) / (proven sent + ${AD_WEIGHT_PROOF_SMOOTHING}), ${AD_WEIGHT_PROOF_MIN}, ${AD_WEIGHT_PROOF_MAX})`,
  `weight = clamp(clicks × proof, ${AD_WEIGHT_MIN}, ${AD_WEIGHT_MAX})`,
].join("\n");

const WEIGHT_RULES = [
  `Clicks received are the clicks the Buddy's readers made on your ads, clicks sent the clicks your readers made on the Buddy's ads, over the last ${AD_WEIGHT_DAYS} days (UTC, today included). Only counted clicks are added up: no bots, repeats or bursts, no more than 3 a day from one network, and none from where the sender's own team signs in.`,
  "Proven received are the leads and sales from the Buddy's readers that you recorded with your own API key or Stripe; proven sent, those of your readers that the Buddy recorded with its own. A click's first sale is both a lead and a sale, so it counts twice, and it still counts once refunded: the sale happened, only the money went back. The pixel proves nothing: anyone holding a click id can call it.",
  `Clicks alone lift a weight to ${AD_WEIGHT_CLICKS_MAX} at most: clicks cost little to make, and what only you record is what takes it further.`,
  `A Buddy with no history in the window has weight 1, and so does one that sent you as much as you sent it. The ${AD_WEIGHT_SMOOTHING} clicks and ${AD_WEIGHT_PROOF_SMOOTHING} proven added on both sides keep a handful of events from swinging it.`,
  `The weight never goes below ${AD_WEIGHT_MIN} or above ${AD_WEIGHT_MAX}: every Buddy stays in the rotation, and none takes it over.`,
] as const;

const DRAW_RULES = [
  "For each ad, Buddy first draws one of your Buddies that has an eligible ad, with a probability proportional to its weight, then one of that Buddy's eligible ads at random. A Buddy with many ads gets no larger share than one with a single ad.",
  `With \`limit\` above 1 (up to ${ADS_LIMIT_MAX}), a Buddy is not drawn again while other Buddies with ads remain; only when each has had its turn does a new round start.`,
  `The weights are read together with the eligible ads and cached with them for up to ${CACHE_MINUTES} minutes, so a click may take that long to change the draw.`,
  "Each partner's weight over the last 30 days is on the Overview's Partners table and on its Buddy page.",
] as const;

type Example = {
  clicks: SentReceived;
  proven: SentReceived;
  meaning: string;
};

/** Worked examples: the formula at work, computed by the app's own `adWeight`. */
const EXAMPLES: readonly Example[] = [
  {
    clicks: { received: 0, sent: 0 },
    proven: { received: 0, sent: 0 },
    meaning: "No history: as any new Buddy",
  },
  {
    clicks: { received: 25, sent: 25 },
    proven: { received: 2, sent: 2 },
    meaning: "As much sent as received",
  },
  {
    clicks: { received: 3, sent: 0 },
    proven: { received: 0, sent: 0 },
    meaning: "35 scripted clicks from one network: 3 count",
  },
  {
    clicks: { received: 10, sent: 0 },
    proven: { received: 0, sent: 0 },
    meaning: "10 clicks received and none sent double it",
  },
  {
    clicks: { received: 50, sent: 0 },
    proven: { received: 0, sent: 0 },
    meaning: `Clicks alone stop at ${AD_WEIGHT_CLICKS_MAX}`,
  },
  {
    clicks: { received: 50, sent: 0 },
    proven: { received: 3, sent: 0 },
    meaning: `With 3 leads you recorded: ${AD_WEIGHT_MAX}`,
  },
  {
    clicks: { received: 10, sent: 0 },
    proven: { received: 0, sent: 6 },
    meaning: "Clicks in, but only your sales recorded by the Buddy",
  },
  {
    clicks: { received: 0, sent: 10 },
    proven: { received: 0, sent: 0 },
    meaning: "10 clicks sent and none received halve it",
  },
  {
    clicks: { received: 0, sent: 90 },
    proven: { received: 0, sent: 0 },
    meaning: `Floored at ${AD_WEIGHT_MIN}`,
  },
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
                <TableHead>clicks received</TableHead>
                <TableHead>clicks sent</TableHead>
                <TableHead>proven received</TableHead>
                <TableHead>proven sent</TableHead>
                <TableHead>weight</TableHead>
                <TableHead>
                  <span className="sr-only">Meaning</span>
                </TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {EXAMPLES.map(({ clicks, proven, meaning }) => (
                <TableRow key={meaning}>
                  <TableCell className="font-mono text-xs tabular-nums">{clicks.received}</TableCell>
                  <TableCell className="font-mono text-xs tabular-nums">{clicks.sent}</TableCell>
                  <TableCell className="font-mono text-xs tabular-nums">{proven.received}</TableCell>
                  <TableCell className="font-mono text-xs tabular-nums">{proven.sent}</TableCell>
                  <TableCell className="font-mono font-semibold text-xs tabular-nums">
                    {weightText.format(adWeight(clicks, proven))}
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
