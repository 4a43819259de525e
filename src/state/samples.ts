// Sample meshes shipped in public/samples, fetched by relative URL (works under any base path).

export interface SampleInfo {
  id: string;
  title: string;
  description?: string;
  files: string[];
  /** Files to open in the editor after loading (defaults to the first). */
  open?: string[];
}

export interface SampleIndex {
  default?: string;
  samples: SampleInfo[];
}

const BASE = 'samples/';

async function fetchOk(url: string): Promise<Response> {
  const res = await fetch(url, { cache: 'no-cache' });
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  return res;
}

let indexPromise: Promise<SampleIndex> | null = null;

export function fetchSampleIndex(): Promise<SampleIndex> {
  indexPromise ??= fetchOk(`${BASE}index.json`)
    .then((r) => r.json() as Promise<SampleIndex>)
    .then((idx) => {
      if (!idx || !Array.isArray(idx.samples)) throw new Error('samples/index.json: no "samples" list');
      return idx;
    })
    .catch((e: unknown) => {
      indexPromise = null;
      throw e;
    });
  return indexPromise;
}

export async function fetchSampleFiles(sample: SampleInfo): Promise<{ path: string; text: string }[]> {
  return Promise.all(
    sample.files.map(async (f) => ({
      path: f,
      text: await (await fetchOk(`${BASE}${encodeURIComponent(sample.id)}/${f.split('/').map(encodeURIComponent).join('/')}`)).text(),
    })),
  );
}
