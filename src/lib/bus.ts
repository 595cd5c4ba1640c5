// In-process publish/subscribe. Carries run progress to SSE streams; a listener that throws
// never breaks the publisher.
type Listener<T> = (payload: T) => void;

export class Bus {
  private topics = new Map<string, Set<Listener<unknown>>>();

  subscribe<T>(topic: string, listener: Listener<T>): () => void {
    let set = this.topics.get(topic);
    if (!set) this.topics.set(topic, (set = new Set()));
    set.add(listener as Listener<unknown>);
    return () => {
      set.delete(listener as Listener<unknown>);
      if (set.size === 0) this.topics.delete(topic);
    };
  }

  publish<T>(topic: string, payload: T): void {
    for (const listener of this.topics.get(topic) ?? []) {
      try {
        listener(payload);
      } catch {
        // a broken subscriber must not stop delivery to the others
      }
    }
  }

  listenerCount(topic: string): number {
    return this.topics.get(topic)?.size ?? 0;
  }
}
