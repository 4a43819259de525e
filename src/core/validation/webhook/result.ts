// How the webhook rules collect what they find, modelled on Istio's agent.Validation: an
// ordered list of errors and one of warnings. Istio builds them with go-multierror, whose
// Append flattens nested lists, so istioctl ends up reporting each error (and warning) on its
// own, in the order the rules appended them; pushing onto flat lists in the same order gives
// the same result. Each finding also carries the field it is about, for the editor.
import type { ValidationFinding } from '../types.ts';

export interface Found {
  message: string;
  path?: string;
  analysis?: ValidationFinding['analysis'];
}

export class V {
  readonly errors: Found[] = [];
  readonly warnings: Found[] = [];

  err(message: string, path?: string): this {
    this.errors.push({ message, path });
    return this;
  }

  warn(message: string, path?: string): this {
    this.warnings.push({ message, path });
    return this;
  }

  /** Appends another validation's errors and warnings (AppendValidation). */
  add(other: V): this {
    for (const e of other.errors) this.errors.push(e);
    for (const w of other.warnings) this.warnings.push(w);
    return this;
  }

  /** Appends only the other's errors (AppendErrors drops a Validation's warnings). */
  addErrors(other: V): this {
    for (const e of other.errors) this.errors.push(e);
    return this;
  }

  /** Appends the other's errors and warnings, all as warnings (WrapWarning of an error list). */
  addAsWarnings(other: V): this {
    for (const e of other.errors) this.warnings.push(e);
    return this;
  }

  get ok(): boolean {
    return this.errors.length === 0;
  }

  /** multierror.Prefix: `prefix + " " + message` on every error. */
  prefixErrors(prefix: string): this {
    for (let i = 0; i < this.errors.length; i++) {
      const e = this.errors[i] as Found;
      this.errors[i] = { ...e, message: `${prefix} ${e.message}` };
    }
    return this;
  }

  /** The first error's text, for rules that wrap one error in another message. */
  firstError(): Found | undefined {
    return this.errors[0];
  }
}

/** A single error (a rule that returns one error or nil). */
export function one(message: string | undefined, path?: string): V {
  const v = new V();
  if (message !== undefined) v.err(message, path);
  return v;
}
