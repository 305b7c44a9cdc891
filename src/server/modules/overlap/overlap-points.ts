/**
 * Points travel as unpadded base64url (43 characters) and rest as 32 bytes each in one bytea, a
 * quarter smaller and one value per list rather than thousands.
 */
export const POINT_BYTES = 32;

export function packPoints(points: readonly string[]): Buffer {
  const packed = Buffer.allocUnsafe(points.length * POINT_BYTES);
  points.forEach((point, index) => {
    packed.write(point, index * POINT_BYTES, POINT_BYTES, "base64url");
  });
  return packed;
}

export function unpackPoints(packed: Buffer | null): string[] {
  if (!packed) return [];
  const points: string[] = [];
  for (let offset = 0; offset < packed.length; offset += POINT_BYTES) {
    points.push(packed.toString("base64url", offset, offset + POINT_BYTES));
  }
  return points;
}

export function pointCount(packed: Buffer | null): number {
  return packed ? packed.length / POINT_BYTES : 0;
}
