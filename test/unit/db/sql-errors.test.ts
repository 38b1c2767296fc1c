import { describe, expect, it } from 'vitest';
import { isConnectionFailure, isUniqueViolation } from '../../../src/db/sql-errors.ts';

const withCode = (code: string, message = 'failed') => Object.assign(new Error(message), { code });

describe('isConnectionFailure', () => {
  it.each([
    'ECONNREFUSED',
    'ECONNRESET',
    'ETIMEDOUT',
    'ENOTFOUND',
    '08006',
    '57P01',
    '57P03',
    '53300',
    '28P01',
    '3D000',
  ])('treats %s as the database being unavailable', (code) => expect(isConnectionFailure(withCode(code))).toBe(true));

  it('treats a connection dropped by the client library as unavailable', () => {
    expect(isConnectionFailure(new Error('Connection terminated unexpectedly'))).toBe(true);
  });

  it.each(['23505', '42P01', '22P02', '25P02'])('leaves the statement error %s to the caller', (code) => {
    expect(isConnectionFailure(withCode(code))).toBe(false);
  });
});

describe('isUniqueViolation', () => {
  it('recognises a duplicate key', () => {
    expect(isUniqueViolation(withCode('23505'))).toBe(true);
    expect(isUniqueViolation(withCode('23503'))).toBe(false);
    expect(isUniqueViolation('23505')).toBe(false);
  });
});
