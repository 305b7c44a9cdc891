import type { NextStepId } from "@shared/next-steps";
import { paths } from "@/lib/paths";

const INSTALL_TAB = `${paths.settings}?tab=install`;

/** What each step asks, and where it is done. */
export const NEXT_STEP_LINKS: Record<NextStepId, { label: string; hint: string; href: string }> = {
  add_buddy: {
    label: "Add a Buddy",
    hint: "A company whose customers could use your product, and yours theirs.",
    href: paths.tools,
  },
  publish_ad: {
    label: "Publish an ad",
    hint: "Your Buddies can share it once it is published.",
    href: paths.marketing,
  },
  share_ad: {
    label: "Share a partner's ad",
    hint: "Copy a Buddy's ad link into your newsletter or app; it ticks with the first click.",
    href: paths.tools,
  },
  install_tracking: {
    label: "Install tracking",
    hint: "Add the click and conversion scripts to your site; it ticks with the first lead.",
    href: INSTALL_TAB,
  },
  connect_stripe: {
    label: "Connect Stripe",
    hint: "Count the revenue your Buddies bring, without code.",
    href: INSTALL_TAB,
  },
};
