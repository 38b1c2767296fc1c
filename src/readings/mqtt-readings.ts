/**
 * Readings over MQTT. Subscribes to `<prefix>/<siteId>/readings` (a JSON array of
 * `{timeseriesId, timestamp, value}`, or one such object) and `<prefix>/<siteId>/ts/<timeseriesId>`
 * (`{timestamp, value}`, an array of them, or a bare JSON value stamped with the time of arrival).
 * Messages go through the same checks and store as REST. A bad message is logged and counted,
 * never thrown; the client reconnects and resubscribes by itself. With a share group, replicas
 * subscribe as `$share/<group>/…`, so the broker hands each message to one of them only.
 */
import { randomBytes } from 'node:crypto';
import { connect, type IClientOptions, type MqttClient } from 'mqtt';
import { DEMO_SITE } from '../auth/client.ts';
import type { Logger } from '../log/logger.ts';
import { MAX_READINGS_PER_REQUEST } from './reading-input.ts';
import type { ReadingIngest } from './reading-ingest.ts';
import { SITE_ID, type SiteDirectory } from '../tenants/site-directory.ts';

export interface MqttReadingsOptions {
  /** `mqtt://`, `mqtts://`, `ws://` or `wss://`, credentials in the URL if the broker needs them. */
  readonly url: string;
  /** First topic level(s): `bkg` gives `bkg/<siteId>/readings`. */
  readonly topicPrefix: string;
  /** Shared-subscription group; empty subscribes plainly (every replica gets every message). */
  readonly shareGroup: string;
}

/** Counters since start. */
export interface MqttReadingsStats {
  /** Messages received. */
  messages: number;
  /** Readings stored. */
  stored: number;
  /** Readings refused inside otherwise readable messages. */
  rejectedReadings: number;
  /** Messages refused whole (unknown topic or site, not JSON, too many readings, store failure). */
  badMessages: number;
}

/** Where a message goes, read from its topic. */
type Route = { siteId: string; timeseriesId?: string };

const SITE_CACHE_MS = 30_000;
// Bad-message logs per minute; the rest are counted and summarised, so a noisy device cannot flood the log.
const LOGS_PER_MINUTE = 20;

class BadMessage extends Error {}

export class MqttReadings {
  readonly stats: MqttReadingsStats = { messages: 0, stored: 0, rejectedReadings: 0, badMessages: 0 };
  /** This replica's MQTT client id (random per start). */
  readonly clientId = `bkg-${randomBytes(6).toString('hex')}`;
  private readonly client: MqttClient;
  private readonly knownSites = new Map<string, number>();
  private readonly subscribed: Promise<void>;
  private logged = { minute: 0, count: 0, suppressed: 0 };

  constructor(
    private readonly options: MqttReadingsOptions,
    private readonly sites: SiteDirectory,
    private readonly ingest: ReadingIngest,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {
    const clientOptions: IClientOptions = {
      clientId: this.clientId,
      reconnectPeriod: 2000,
      connectTimeout: 10_000,
      resubscribe: true,
      clean: true,
    };
    this.client = connect(options.url, clientOptions);
    const host = safeHost(options.url);
    let announced = false;
    this.subscribed = new Promise((resolve) => {
      this.client.on('connect', () => {
        this.client.subscribe(this.topics(), { qos: 1 }, (error, granted) => {
          const refused = granted?.filter((g) => g.qos === 128) ?? [];
          if (error || refused.length > 0) {
            this.logger.error(
              {
                broker: host,
                err: error ? { message: error.message } : undefined,
                refused: refused.map((g) => g.topic),
              },
              'mqtt subscription refused',
            );
            return;
          }
          if (!announced) this.logger.info({ broker: host, topics: this.topics() }, 'mqtt readings subscribed');
          announced = true;
          resolve();
        });
      });
    });
    this.client.on('reconnect', () => this.logger.debug({ broker: host }, 'mqtt reconnecting'));
    // While the broker is away every retry fails: these go through the per-minute cap too.
    this.client.on('offline', () => this.warn({ broker: host }, 'mqtt broker unreachable; retrying'));
    this.client.on('error', (error) => this.warn({ broker: host, err: { message: error.message } }, 'mqtt error'));
    this.client.on('message', (topic, payload) => {
      void this.receive(topic, payload);
    });
  }

  /** Whether the broker connection is up now. */
  get connected(): boolean {
    return this.client.connected;
  }

  /** Resolves once the first subscription is granted. */
  ready(): Promise<void> {
    return this.subscribed;
  }

  /** The topic filters subscribed to. */
  topics(): string[] {
    const share = this.options.shareGroup ? `$share/${this.options.shareGroup}/` : '';
    const prefix = this.options.topicPrefix;
    return [`${share}${prefix}/+/readings`, `${share}${prefix}/+/ts/#`];
  }

  async close(): Promise<void> {
    await this.client.endAsync();
  }

  /** Handles one message; never throws. */
  private async receive(topic: string, payload: Buffer): Promise<void> {
    this.stats.messages++;
    try {
      const route = this.route(topic);
      const items = this.items(payload, route);
      await this.checkSite(route.siteId);
      const report = await this.ingest
        .ingest(route.siteId, items, { source: 'mqtt', timeseriesId: route.timeseriesId })
        .catch((error: unknown) => {
          this.logger.error({ err: error, topic }, 'mqtt readings could not be stored');
          throw new BadMessage('the readings could not be stored');
        });
      this.stats.stored += report.stored;
      this.stats.rejectedReadings += report.rejected.length;
      if (report.rejected.length > 0)
        this.warn(
          { topic, rejected: report.rejected.slice(0, 5), rejectedCount: report.rejected.length },
          'mqtt readings rejected',
        );
    } catch (error) {
      this.stats.badMessages++;
      const reason = error instanceof BadMessage ? error.message : 'unexpected error';
      if (!(error instanceof BadMessage)) this.logger.error({ err: error, topic }, 'mqtt message failed');
      this.warn({ topic: topic.slice(0, 300), reason }, 'mqtt message ignored');
    }
  }

  private route(topic: string): Route {
    const prefix = `${this.options.topicPrefix}/`;
    if (!topic.startsWith(prefix)) throw new BadMessage('topic outside the prefix');
    const [siteId, kind, ...rest] = topic.slice(prefix.length).split('/');
    if (siteId === undefined || !SITE_ID.test(siteId)) throw new BadMessage('not a site id');
    if (kind === 'readings' && rest.length === 0) return { siteId };
    const timeseriesId = rest.join('/');
    if (kind === 'ts' && timeseriesId !== '') return { siteId, timeseriesId };
    throw new BadMessage('unknown topic');
  }

  private items(payload: Buffer, route: Route): unknown[] {
    let body: unknown;
    try {
      body = JSON.parse(payload.toString('utf8'));
    } catch {
      throw new BadMessage('payload is not JSON');
    }
    let items: unknown[];
    if (Array.isArray(body)) items = body;
    else if (typeof body === 'object' && body !== null) items = [body];
    else if (route.timeseriesId !== undefined) items = [{ timestamp: this.now(), value: body }];
    else throw new BadMessage('payload is not a reading or an array of readings');
    if (items.length > MAX_READINGS_PER_REQUEST) throw new BadMessage(`more than ${MAX_READINGS_PER_REQUEST} readings`);
    return items;
  }

  /** The site must exist and not be the read-only demo; known sites are remembered briefly. */
  private async checkSite(siteId: string): Promise<void> {
    if (siteId === DEMO_SITE) throw new BadMessage('the demo site is read-only');
    const known = this.knownSites.get(siteId);
    if (known !== undefined && known > this.now()) return;
    if (!(await this.sites.has(siteId))) throw new BadMessage('unknown site');
    this.knownSites.set(siteId, this.now() + SITE_CACHE_MS);
  }

  private warn(details: Record<string, unknown>, message: string): void {
    const minute = Math.floor(this.now() / 60_000);
    if (minute !== this.logged.minute) {
      if (this.logged.suppressed > 0)
        this.logger.warn({ suppressed: this.logged.suppressed }, 'mqtt warnings suppressed in the last minute');
      this.logged = { minute, count: 0, suppressed: 0 };
    }
    if (this.logged.count++ < LOGS_PER_MINUTE) this.logger.warn(details, message);
    else this.logged.suppressed++;
  }
}

/** The broker as logs may name it: host and port, never credentials. */
function safeHost(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}`;
  } catch {
    return 'mqtt broker';
  }
}
