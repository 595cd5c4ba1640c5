// Time-ordered UUIDs (v7): index-friendly and still opaque UUID strings as the spec requires.
export const newId = (): string => Bun.randomUUIDv7();

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: string): boolean => UUID.test(value);
