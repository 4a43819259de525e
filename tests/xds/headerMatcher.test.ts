// envoy.config.route.v3.HeaderMatcher on a header the request does not carry, as the proto's
// own comments state (route_components.proto, `invert_match` and `treat_missing_header_as_empty`).
import { describe, expect, it } from 'vitest';
import { headerMatches } from '../../src/core/xds/envoyMatchers.ts';

const none = new Map<string, string>();
const withHeader = new Map([['x-user', 'bob']]);

describe('HeaderMatcher on a missing header', () => {
  it('an inverted value rule does not match when the header is absent ("header2": ignored, so it will not match)', () => {
    expect(headerMatches({ name: 'x-user', stringMatch: { exact: 'alice' }, invertMatch: true }, none)).toBe(false);
    expect(headerMatches({ name: 'x-user', exactMatch: 'alice', invertMatch: true }, none)).toBe(false);
    expect(headerMatches({ name: 'x-user', safeRegexMatch: { regex: '\\d{3}' }, invertMatch: true }, none)).toBe(false);
  });

  it('with treat_missing_header_as_empty the header reads as "" and the inverted rule matches ("header1")', () => {
    expect(headerMatches({ name: 'x-user', stringMatch: { exact: 'alice' }, invertMatch: true, treatMissingHeaderAsEmpty: true }, none)).toBe(true);
  });

  it('a regex for the empty string matches a missing header only with treat_missing_header_as_empty ("header3", "header4")', () => {
    expect(headerMatches({ name: 'x-user', stringMatch: { safeRegex: { regex: '^$' } }, treatMissingHeaderAsEmpty: true }, none)).toBe(true);
    expect(headerMatches({ name: 'x-user', stringMatch: { safeRegex: { regex: '^$' } } }, none)).toBe(false);
  });

  it('presence rules answer for a missing header, inverted or not', () => {
    expect(headerMatches({ name: 'x-user', presentMatch: false }, none)).toBe(true);
    expect(headerMatches({ name: 'x-user', presentMatch: true }, none)).toBe(false);
    expect(headerMatches({ name: 'x-user', presentMatch: true, invertMatch: true }, none)).toBe(true);
  });

  it('a present header still inverts as before ("\\d{3}" does not match 1234, so it matches when inverted)', () => {
    expect(headerMatches({ name: 'x-user', stringMatch: { exact: 'alice' }, invertMatch: true }, withHeader)).toBe(true);
    expect(headerMatches({ name: 'x-id', safeRegexMatch: { regex: '\\d{3}' }, invertMatch: true }, new Map([['x-id', '1234']]))).toBe(true);
  });
});
