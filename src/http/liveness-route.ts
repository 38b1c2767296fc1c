import type { RequestHandler } from 'express';
import type { EngineHealth } from '../store/graph-store.ts';

/**
 * `GET /healthz`: live while every engine serves or is replacing a failed part (200, `ok`); 503
 * `broken` once one is broken for good, when only a restart brings it back.
 */
export function livenessRoute(graph: { health(): EngineHealth }): RequestHandler {
  return (_req, res) => {
    const health = graph.health();
    res
      .status(health === 'broken' ? 503 : 200)
      .json({ status: health === 'broken' ? 'broken' : 'ok', engines: { graph: health } });
  };
}
