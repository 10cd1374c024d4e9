import type { Json } from "./json.ts";
import type { EmulatorStore } from "./store.ts";

/**
 * The store in memory, one Map per object name. The Maps are the state itself (a test may read
 * or edit them); reads hand out copies and writes replace an object's fields in place, so an
 * object a test holds stays the live one, as with a database row read again.
 */
export interface MemoryStore extends EmulatorStore {
  /** The Map of one object name (made empty on first use). */
  objects(object: string): Map<string, Json>;
}

export function createMemoryStore(): MemoryStore {
  const maps = new Map<string, Map<string, Json>>();
  const objects = (object: string) => {
    let map = maps.get(object);
    if (!map) {
      map = new Map();
      maps.set(object, map);
    }
    return map;
  };
  const find = (id: string) => {
    for (const map of maps.values()) {
      const found = map.get(id);
      if (found) return found;
    }
    return undefined;
  };
  const write = (id: string, object: string, data: Json) => {
    const copy = structuredClone(data);
    const existing = find(id);
    if (!existing) {
      objects(object).set(id, copy);
      return;
    }
    for (const key of Object.keys(existing)) delete existing[key];
    Object.assign(existing, copy);
  };
  return {
    objects,
    async get(id) {
      const found = find(id);
      return found ? structuredClone(found) : null;
    },
    async put(id, object, data) {
      write(id, object, data);
    },
    async create(id, object, data) {
      if (find(id)) return false;
      write(id, object, data);
      return true;
    },
    async transition(id, from, data, field = "status") {
      const found = find(id);
      if (!found || found[field] === null || found[field] === undefined) return false;
      if (String(found[field]) !== from) return false;
      write(id, String(found.object), data);
      return true;
    },
    async list(object) {
      return [...objects(object).values()].map((each) => structuredClone(each));
    },
  };
}
