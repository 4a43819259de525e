import type { Level } from '../../core/document/types.ts';

/** Small level glyph; colour comes from CSS (`.lvl-Error` etc.). */
export function LevelIcon({ level }: { level: Level }) {
  return (
    <svg className={`level-icon lvl-${level}`} viewBox="0 0 16 16" role="img" aria-label={level}>
      {level === 'Error' && (
        <>
          <circle cx="8" cy="8" r="7" fill="currentColor" />
          <path d="M5.2 5.2l5.6 5.6M10.8 5.2l-5.6 5.6" stroke="var(--icon-fg)" strokeWidth="1.6" strokeLinecap="round" />
        </>
      )}
      {level === 'Warning' && (
        <>
          <path d="M8 1.2 15.2 14.4H.8z" fill="currentColor" strokeLinejoin="round" />
          <path d="M8 5.6v4.4" stroke="var(--icon-fg)" strokeWidth="1.6" strokeLinecap="round" />
          <circle cx="8" cy="12.2" r=".95" fill="var(--icon-fg)" />
        </>
      )}
      {level === 'Info' && (
        <>
          <circle cx="8" cy="8" r="7" fill="currentColor" />
          <path d="M8 7.2v4.4" stroke="var(--icon-fg)" strokeWidth="1.6" strokeLinecap="round" />
          <circle cx="8" cy="4.8" r=".95" fill="var(--icon-fg)" />
        </>
      )}
    </svg>
  );
}
