// Compiled (never run) by types.test.mjs: the README's usage, type-checked against src/*.d.ts.
import { loadPuddle, BoundaryKind, FillShape, PuddleError, type World } from '../../src/puddle.js';
import { resolveScene, buildWorld, applyFrame, type Scene } from '../../src/scene.js';
async function main() {
  const p = await loadPuddle({ threads: 2 });
  const w: World = p.createWorld({ substeps: 2, gravity: [0, -10] });
  const m: number = w.addMaterial({ viscosity_sigma: 0.3, color: '#ff0000' });
  w.addBoundary({ kind: BoundaryKind.BOX_CONTAINER, half_extents: [16, 10] });
  w.fill({ shape: FillShape.BOX, material: m, position: { x: 1, y: 2 }, half_extents: [5, 9] });
  w.setPointer(0, { position: [0, -5], strength: -100 });
  w.step();
  const { count, x, y } = w.positions();
  const v: number = x[0] + y[0] + count;
  const s: Scene = resolveScene(p, {});
  const w2 = buildWorld(p, s, { threads: 1 });
  applyFrame(p, s, w2, 0);
  try { w.addMaterial({ rest_density: -1 }); } catch (e) { if (e instanceof PuddleError) console.log(e.id, v); }
  const h: string = w.hash();
  console.log(h, w.stats().centre_of_mass.x, w.profile().relax, w.boundaries()[0].corners);
}
main();
