/**
 * GraphQL answers kept in memory as the bytes that were sent, by a key that names everything the
 * answer is a function of (`use-answer-cache.ts`): least recently used first out, the whole
 * bounded in bytes. lru-cache keeps the order and the byte count.
 */
import { LRUCache } from 'lru-cache';

/** Bytes an entry costs beside its body: the key, the entry, the cache's bookkeeping. */
const ENTRY_OVERHEAD = 256;

export class AnswerCache {
  private readonly entries: LRUCache<string, Buffer> | undefined;
  /** Per graph, how many changes of it this process has seen (`changed`): a key names it. */
  private readonly generations = new Map<string, number>();

  /** `maxBytes`: the bound (0: nothing is kept); an answer larger than a quarter of it is not kept. */
  constructor(maxBytes: number) {
    this.entries =
      maxBytes > 0
        ? new LRUCache<string, Buffer>({
            maxSize: maxBytes,
            maxEntrySize: Math.max(ENTRY_OVERHEAD + 1, Math.floor(maxBytes / 4)),
            sizeCalculation: (body, key) => body.length + key.length + ENTRY_OVERHEAD,
          })
        : undefined;
  }

  get(key: string): Buffer | undefined {
    return this.entries?.get(key);
  }

  set(key: string, body: Buffer): void {
    this.entries?.set(key, body);
  }

  /** How many changes of `graph` this process has seen: what a key names beside the graph's version. */
  generation(graph: string): number {
    return this.generations.get(graph) ?? 0;
  }

  /**
   * `graph` changed through this process. A change recorded as a version makes new keys anyway;
   * one that is not (the demo site's reset, the site files loaded at start, a write to the store
   * made in the process) does here: the answers kept of the graph are no longer reached and leave
   * as the least used.
   */
  changed(graph: string): void {
    this.generations.set(graph, this.generation(graph) + 1);
  }

  /** Bytes kept now, overheads included. */
  get bytes(): number {
    return this.entries?.calculatedSize ?? 0;
  }
}
