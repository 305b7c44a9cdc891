import type { CatalogProduct } from "./catalog";
import { CATALOG, findCatalogCategory } from "./catalog";

/** Lookups other modules need from the catalog, so they do not reach into its indexes. */
export function categoryName(slug: string | null | undefined): string | null {
  return findCatalogCategory(slug)?.name ?? null;
}

/** The catalog category of a normalised domain, when the catalog knows the product. */
export function categoryForDomain(domain: string): string | null {
  return CATALOG.productsByDomain.get(domain)?.category ?? null;
}

let byName: Map<string, CatalogProduct> | undefined;

/** A catalog product by its exact name, case-insensitively. */
export function productByName(name: string): CatalogProduct | undefined {
  byName ??= new Map(CATALOG.products.map((product) => [product.name.toLowerCase(), product]));
  return byName.get(name.trim().toLowerCase());
}
