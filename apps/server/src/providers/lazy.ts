/**
 * Runs `load` once, on first use, and shares its promise. The provider SDKs cost up to two
 * seconds to import (ElevenLabs' alone is about 2 s); offline mode never needs them, and a start
 * on an unchanged data directory must open in well under 3 s.
 */
export function lazy<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    loading ??= load();
    return loading;
  };
}
