// Links from a described fact to the YAML line it comes from: the worker resolved every ref of
// the description to a file line (DescribeResult.sources); a click opens the file at the line.
import { createContext, useContext, type ReactNode } from 'react';
import type { DescribeRef, DescribeSource } from '../../core/queries/views.ts';
import type { ServicePortFact } from './types.ts';
import { openAt } from '../../state/navigation.ts';

/** The key DescribeResult.sources uses for a ref (core/queries/describeQuery.ts describeSourceKey). */
export function sourceKey(ref: Pick<DescribeRef, 'resourceKey' | 'fieldPath'>): string {
  return ref.fieldPath ? `${ref.resourceKey}#${ref.fieldPath}` : ref.resourceKey;
}

export const SourcesContext = createContext<Record<string, DescribeSource>>({});

/** The source of a ref: its field's line, else the resource's. */
export function useSource(ref: Pick<DescribeRef, 'resourceKey' | 'fieldPath'> | undefined): DescribeSource | undefined {
  const sources = useContext(SourcesContext);
  if (!ref) return undefined;
  return sources[sourceKey(ref)] ?? sources[ref.resourceKey];
}

/** `Kind ns/name` (a cluster-scoped object: `Kind name`). */
export function refName(ref: DescribeRef): string {
  return `${ref.kind} ${ref.namespace ? `${ref.namespace}/` : ''}${ref.name}`;
}

/**
 * A fact's link: its label as a button that opens the file at the line, with `file:line`
 * beside it; plain text when the resource is not written in the files (derived, assumed).
 */
export function Src({ of, children }: { of: Pick<DescribeRef, 'resourceKey' | 'fieldPath'> | undefined; children: ReactNode }) {
  const src = useSource(of);
  if (!src) return <span className="describe-nolink">{children}</span>;
  const where = `${src.file}:${src.line}`;
  return (
    <button
      type="button"
      className="link-button describe-link"
      data-testid="describe-link"
      data-file={src.file}
      data-line={src.line}
      title={`Show in ${where}`}
      onClick={() => openAt(src.file, { line: src.line })}
    >
      {children}
      <span className="describe-where">{where}</span>
    </button>
  );
}

/** A resource's link, labelled `Kind ns/name`. */
export function RefLink({ of, text }: { of: DescribeRef | undefined; text?: string }) {
  if (!of) return null;
  return <Src of={of}>{text ?? refName(of)}</Src>;
}

/** A Service's ports as istioctl's printService lists them (non-TCP ports skipped), each linked to its line. */
export function ServicePorts({ ports, testId }: { ports: readonly ServicePortFact[]; testId?: string }) {
  return (
    <ul className="describe-list">
      {ports
        .filter((p) => !p.skipped)
        .map((p) => (
          <li key={`${p.name}/${p.port}`} data-testid={testId}>
            <Src of={p.source}>
              port {p.name ? `${p.name} ` : ''}
              {p.port}
            </Src>{' '}
            <span className="describe-chip">{p.istioProtocol}</span>
            {p.targetPort !== undefined ? <> targets pod port {p.targetPort}</> : <span className="describe-warning"> {p.error}</span>}
          </li>
        ))}
    </ul>
  );
}
