import { CATALOG, type CatalogCategory, type CatalogProduct } from "./catalog";

/**
 * Finds a company's category from its own words when it has no catalog entry: a BM25 index over
 * every catalog product (name + description + category name), with a category scored from its
 * best-matching products. Built once at module load; a query touches only the postings of its terms.
 */

// Common English plus marketing filler that every product description uses and no category owns.
const STOP_WORDS = new Set(
  (
    "a an and are as at be been but by can do for from has have how in into is it its of on or our " +
    "that the their them then there these they this to up us was we what when which who will with " +
    "you your all any more most no not only other over own same so than too very via just also " +
    "platform software solution solutions service services tool tools online best easy simple " +
    "modern powerful leading way help helps make makes get gets use using new one inc com io"
  ).split(" "),
);

/**
 * Deliberately crude suffix stripping: documents and queries go through the same rules, so it only
 * has to map inflections onto one form ('invoices', 'invoicing' → 'invoic'), not produce words.
 */
function stem(word: string): string {
  let w = word;
  if (w.length > 4 && w.endsWith("ies")) w = `${w.slice(0, -3)}y`;
  else if (w.length > 5 && w.endsWith("ments")) w = w.slice(0, -5);
  else if (w.length > 5 && w.endsWith("ment")) w = w.slice(0, -4);
  else if (w.length > 5 && w.endsWith("ing")) w = w.slice(0, -3);
  else if (w.length > 4 && w.endsWith("ed")) w = w.slice(0, -2);
  else if (w.length > 5 && w.endsWith("ly")) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith("s") && !/(ss|us|is)$/.test(w)) w = w.slice(0, -1);
  if (w.length > 4 && w.endsWith("e")) w = w.slice(0, -1);
  return w;
}

/** Lower-case word tokens without stop words, stemmed. 'e-mail' and 'email' meet as 'email'. */
export function tokenize(text: string): string[] {
  const words =
    text
      .toLowerCase()
      .replace(/\be-(?=[a-z])/g, "e")
      .match(/[a-z0-9]+/g) ?? [];
  const tokens: string[] = [];
  for (const word of words) {
    if (word.length < 2 || STOP_WORDS.has(word)) continue;
    tokens.push(stem(word));
  }
  return tokens;
}

// Standard BM25 parameters: term-frequency saturation and document-length normalisation.
const K1 = 1.2;
const B = 0.75;
/** A category's score sums its best few products: several matches beat one, big categories gain nothing. */
const PRODUCTS_PER_CATEGORY_SCORE = 3;

type Posting = { doc: number; tf: number };

export type CategoryScore = { slug: string; score: number };

export type TextIndex = { rankCategories(text: string, limit?: number): CategoryScore[] };

export function buildTextIndex(
  products: readonly CatalogProduct[],
  categories: ReadonlyMap<string, CatalogCategory>,
): TextIndex {
  const postings = new Map<string, Posting[]>();
  const lengths = products.map((product, doc) => {
    const categoryName = categories.get(product.category)?.name ?? "";
    const tokens = tokenize(`${product.name} ${product.description} ${categoryName}`);
    const counts = new Map<string, number>();
    for (const token of tokens) counts.set(token, (counts.get(token) ?? 0) + 1);
    for (const [term, tf] of counts) {
      const list = postings.get(term) ?? [];
      list.push({ doc, tf });
      postings.set(term, list);
    }
    return tokens.length;
  });
  const averageLength = lengths.reduce((sum, n) => sum + n, 0) / Math.max(1, lengths.length);
  const idf = new Map<string, number>();
  for (const [term, list] of postings) {
    idf.set(term, Math.log(1 + (products.length - list.length + 0.5) / (list.length + 0.5)));
  }

  function scoreProducts(text: string): Map<number, number> {
    const scores = new Map<number, number>();
    for (const term of new Set(tokenize(text))) {
      const list = postings.get(term);
      const weight = idf.get(term);
      if (!list || weight === undefined) continue;
      for (const { doc, tf } of list) {
        const norm = K1 * (1 - B + (B * (lengths[doc] ?? 0)) / averageLength);
        scores.set(doc, (scores.get(doc) ?? 0) + (weight * tf * (K1 + 1)) / (tf + norm));
      }
    }
    return scores;
  }

  return {
    rankCategories(text, limit = 5) {
      const perCategory = new Map<string, number[]>();
      for (const [doc, score] of scoreProducts(text)) {
        const slug = products[doc]?.category;
        if (!slug) continue;
        const list = perCategory.get(slug) ?? [];
        list.push(score);
        perCategory.set(slug, list);
      }
      const ranked: CategoryScore[] = [];
      for (const [slug, scores] of perCategory) {
        scores.sort((a, b) => b - a);
        const top = scores.slice(0, PRODUCTS_PER_CATEGORY_SCORE).reduce((sum, s) => sum + s, 0);
        ranked.push({ slug, score: top });
      }
      ranked.sort((a, b) => b.score - a.score || a.slug.localeCompare(b.slug));
      return ranked.slice(0, limit);
    },
  };
}

const catalogIndex = buildTextIndex(CATALOG.products, CATALOG.categoriesBySlug);

/** Catalog categories ranked by relevance to free text, best first; empty when no term matches. */
export function rankCategoriesByText(text: string, limit = 5): CategoryScore[] {
  return catalogIndex.rankCategories(text, limit);
}
