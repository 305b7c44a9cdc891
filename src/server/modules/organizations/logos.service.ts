import { and, eq, isNotNull, sql } from "drizzle-orm";
import sharp from "sharp";
import type { DbOrTx } from "../../db/client";
import { organizationLogos, organizations } from "../../db/schema";
import { AppError } from "../../errors";

export const LOGO_SIZE_PX = 256;

/** The real type from the first bytes: the name and the declared type are the client's word only. */
export function sniffImageType(bytes: Buffer): "image/jpeg" | "image/png" | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "image/jpeg";
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length >= 8 && png.every((byte, i) => bytes[i] === byte)) return "image/png";
  return null;
}

/**
 * Re-encodes to a square JPEG: one format to serve, and re-encoding drops metadata (EXIF, GPS)
 * and anything smuggled after the image data. The pixel cap refuses decompression bombs.
 */
export async function normalizeLogo(bytes: Buffer): Promise<Buffer> {
  if (!sniffImageType(bytes)) throw new AppError(415, "Logo must be a JPEG or PNG image");
  try {
    return await sharp(bytes, { limitInputPixels: 40_000_000 })
      .rotate()
      .resize(LOGO_SIZE_PX, LOGO_SIZE_PX, { fit: "contain", background: "#ffffff" })
      .flatten({ background: "#ffffff" })
      .jpeg({ quality: 85, mozjpeg: true })
      .toBuffer();
  } catch {
    throw new AppError(400, "The logo could not be read as an image");
  }
}

export async function saveLogo(db: DbOrTx, organizationId: string, image: Buffer): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .insert(organizationLogos)
      .values({ organizationId, image })
      .onConflictDoUpdate({
        target: organizationLogos.organizationId,
        set: { image, updatedAt: new Date() },
      });
    // The version is what cache-busts every <img>: /api/logos/{domain}.jpg?v={version}.
    await tx
      .update(organizations)
      .set({ logoVersion: sql`coalesce(${organizations.logoVersion}, 0) + 1`, updatedAt: new Date() })
      .where(eq(organizations.id, organizationId));
  });
}

export async function findLogoByDomain(db: DbOrTx, domain: string) {
  const [row] = await db
    .select({ image: organizationLogos.image, version: organizations.logoVersion, id: organizations.id })
    .from(organizations)
    .innerJoin(organizationLogos, eq(organizationLogos.organizationId, organizations.id))
    .where(and(eq(organizations.domain, domain), isNotNull(organizations.logoVersion)))
    .limit(1);
  return row ?? null;
}
