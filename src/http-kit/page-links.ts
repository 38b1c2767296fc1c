import type { Request } from 'express';

/**
 * The page links of a DRF LimitOffsetPagination answer: absolute URLs to the next and previous
 * pages, the other query parameters kept; null at either end.
 */
export function pageLinks(
  req: Request,
  count: number,
  limit: number,
  offset: number,
): { next: string | null; previous: string | null } {
  const link = (newOffset: number | undefined) => {
    const url = new URL(req.originalUrl, `${req.protocol}://${req.get('host') ?? 'localhost'}`);
    url.searchParams.set('limit', String(limit));
    if (newOffset === undefined) url.searchParams.delete('offset');
    else url.searchParams.set('offset', String(newOffset));
    return url.toString();
  };
  return {
    next: offset + limit < count ? link(offset + limit) : null,
    previous: offset <= 0 ? null : link(offset - limit > 0 ? offset - limit : undefined),
  };
}
