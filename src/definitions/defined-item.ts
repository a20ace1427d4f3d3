import type { Defined, ResourceKind } from './definitions.js';
import type { SourceLocation } from './problems.js';
import type { DocumentLocator } from './yaml-source.js';

/**
 * A resource as loaded from its document: `locate` and `locateIn` are methods of the class rather than two closures
 * made for each item (a 10,000-alert repository made 20,000 of them per load, and kept them all), and its own
 * location is made when first read (a plan without changes or problems reads none).
 */
export class DefinedItem<T> implements Defined<T> {
  readonly #locator: DocumentLocator;
  #location: SourceLocation | undefined;

  constructor(
    readonly kind: ResourceKind,
    readonly key: string,
    readonly spec: T,
    /** Dot path of the resource inside its document, e.g. `alerts.2`. */
    readonly path: string,
    readonly sensitivePaths: string[],
    locator: DocumentLocator,
  ) {
    this.#locator = locator;
  }

  get location(): SourceLocation {
    return (this.#location ??= this.#locator.locate(this.path));
  }

  locate(path: string): SourceLocation {
    return this.#locator.locate(path ? `${this.path}.${path}` : this.path);
  }

  locateIn(path: string, offset: number): SourceLocation {
    return this.#locator.locateIn(`${this.path}.${path}`, offset);
  }
}
