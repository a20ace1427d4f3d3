/** One page of a search: its items and whether another page follows. */
export interface Page<T> {
  items: T[];
  nextPage: boolean;
}
