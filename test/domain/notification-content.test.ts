/**
 * TPP-Notification-Content-Preferred / ASPSP-Notification-Content (`status=X1,…,Xn`, each Xi one of
 * SCA, PROCESS, LAST): the spellings TPPs send are read, anything else is refused, and the
 * answer names the constants in the standard's order.
 */
import { describe, expect, it } from 'vitest';
import { checkNotificationContent, formatNotificationContent } from '../../src/domain/notification-content.js';

describe('checkNotificationContent', () => {
  it.each([
    ['status=SCA,PROCESS,LAST', ['SCA', 'PROCESS', 'LAST']],
    ['status=LAST', ['LAST']],
    ['status=LAST,SCA', ['SCA', 'LAST']],
    ['status= SCA , PROCESS ', ['SCA', 'PROCESS']],
    ['Status=sca,last', ['SCA', 'LAST']],
    ['status=SCA,SCA', ['SCA']],
  ])('reads %j', (value, contents) => {
    expect(checkNotificationContent(value)).toEqual({ ok: true, value: contents });
  });

  it.each(['', 'status=', 'SCA,PROCESS', 'status=ALL', 'status=SCA,,LAST', 'state=SCA', `status=${'SCA,'.repeat(40)}SCA`])(
    'refuses %j',
    (value) => {
      const result = checkNotificationContent(value);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.reason.en).toMatch(/status=X1/);
    },
  );
});

describe('formatNotificationContent', () => {
  it('names the constants in the order SCA, PROCESS, LAST', () => {
    expect(formatNotificationContent(['LAST', 'SCA'])).toBe('status=SCA,LAST');
    expect(formatNotificationContent(['PROCESS', 'LAST', 'SCA'])).toBe('status=SCA,PROCESS,LAST');
  });
});
