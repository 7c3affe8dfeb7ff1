// Compiled (never run) by types.test.mjs: the README's usage, type-checked against src/*.d.ts.
import { loadPuddle, BoundaryKind, FillShape, PuddleError, type World } from '../../src/puddle.js';
import { resolveScene, loadScene, buildWorld, applyFrame, type Scene } from '../../src/scene.js';
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
  const stratify: Scene = await loadScene(p, 'stratify');
  console.log(stratify.materials[0].name, stratify.bounds.max.z);
  try { w.addMaterial({ rest_density: -1 }); } catch (e) { if (e instanceof PuddleError) console.log(e.id, v); }
  const h: string = w.hash();
  console.log(h, w.stats().centre_of_mass.x, w.profile().relax, w.boundaries()[0].corners);
}
main();
// 3D: the same API with dimensions 3, 3-component vectors and the orbit camera
import { cameraFraming, cameraMatrix, cameraRay, cameraEye, type Camera } from '../../src/camera.js';
async function main3d() {
  const p = await loadPuddle();
  const w: World = p.createWorld({ dimensions: 3, gravity: [0, -10, 0] });
  w.addMaterial({});
  w.addBoundary({ kind: BoundaryKind.BOX_CONTAINER, half_extents: [8, 6, 5] });
  w.fill({ shape: FillShape.BOX, position: { x: -4, y: 0, z: 0 }, half_extents: [3, 4, 5] });
  const cam: Camera = cameraFraming({ x: -8, y: -6, z: -5 }, { x: 8, y: 6, z: 5 });
  const m: Float32Array = cameraMatrix(cam, 16 / 9);
  w.setPointer(0, { position: cameraEye(cam), direction: cameraRay(cam, 16 / 9, 0, 0), strength: -100 });
  w.step();
  const { z, vz } = w.particles();
  const depth: number = (z ? z[0] : 0) + (vz ? vz[0] : 0) + m[0] + p.restSpacing3d(1, 4);
  const removed: number = w.removeParticlesInCircle([0, 0, 0], 2) + w.removeParticlesInBox(0, 0, 1, 1);
  const id: number = w.addBox([0, -5, 0], [1, 1, 1]) + w.spawn([0, 4, 0], { count: 3 }) + w.spawn(1, 2);
  const s = resolveScene(p, {});
  const camera: Camera | null = s.camera;
  console.log(depth, removed, id, camera?.yaw, s.dimensions, w.stats().centre_of_mass.z, w.dimensions);
}
main3d();
// Rigid bodies: ids are packed ints; defs keep their C names, type and shape also by name
import { BodyShape, BodyType, type BodyId, type LiveBody } from '../../src/puddle.js';
async function bodies() {
  const p = await loadPuddle();
  const w = p.createWorld({});
  w.addMaterial({});
  w.addBoundary({ kind: BoundaryKind.BOX_CONTAINER, half_extents: [16, 10] });
  const box: BodyId = w.addBody({ shape: 'box', position: [0, 2], half_extents: [1.5, 1], density: 0.5, color: '#b5651d' });
  const ball: BodyId = w.addBody({ shape: BodyShape.CIRCLE, type: BodyType.DYNAMIC, position: { x: 4, y: 2 }, radius: 1 });
  w.addBody({ shape: 'polygon', vertices: [[0, 0], [2, 0], [1, 2]], angle: 0.3 });
  w.step();
  const b: LiveBody | null = w.body(box);
  if (b) w.setBody(box, { linear_velocity: [b.position.x, 0], angular_velocity: [0, 0, 1] });
  const ids: BodyId[] = w.bodies();
  const f: number = w.bodyForce(ball).force.y + w.bodyMass(ball).mass + w.bodyCount + w.profile().bodies;
  w.removeBody(ball);
  const w3 = p.createWorld({ dimensions: 3 });
  w3.addMaterial({});
  w3.addBoundary({ kind: BoundaryKind.BOX_CONTAINER, half_extents: [8, 6, 5] });
  const cube = w3.addBody({ shape: 'box', half_extents: [1, 1, 1], orientation: [0, 0, 0.38268343, 0.92387953] });
  const s = resolveScene(p, {});
  console.log(ids, f, w.hasBody(ball), w3.body(cube)?.orientation.w, s.bodies[0]?.count, p.defaultBodyDef().density);
}
bodies();
// the solvers: by name or Solver's numbers, their settings in world.sph (any of them)
import { Solver } from '../../src/puddle.js';
async function solvers() {
  const p = await loadPuddle();
  const w: World = p.createWorld({ solver: 'dfsph', sph: { viscosity: 0.5, density_tolerance: 1e-4 } });
  w.setDef({ solver: Solver.SPH, sph: { speed_of_sound: 80, eos: 'tait' } });
  const tolerance: number = w.def.sph.density_tolerance;
  const clumped: number = w.stats().clumped;
  const w2 = buildWorld(p, await loadScene(p, 'dfsph-dam-break'), { solver: 'clavet', sph: { cfl: 0.3 } });
  console.log(tolerance, clumped, w2.def.solver === Solver.CLAVET);
}
solvers();
