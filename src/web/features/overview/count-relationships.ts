import type { Relationship } from "@shared/relationships";

/** SPEC §2 Overview: Buddies and Competitors count active relationships of each type only. */
export function countActiveRelationships(relationships: Relationship[]): {
  buddies: number;
  competitors: number;
} {
  let buddies = 0;
  let competitors = 0;
  for (const relationship of relationships) {
    if (relationship.status !== "active") continue;
    if (relationship.type === "complement") buddies += 1;
    if (relationship.type === "competitor") competitors += 1;
  }
  return { buddies, competitors };
}
