/** The repository's documentation pages: the package ships no docs/, so help texts link here (package.json's homepage). */
export const DOCS_URL = 'https://github.com/alertform/alertform/blob/main/docs/';

/** A page of the documentation, where a user of the package can read it. */
export function docsUrl(page: string): string {
  return `${DOCS_URL}${page}`;
}
