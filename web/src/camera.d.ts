// Types of web/src/camera.js: the orbit camera of 3D scenes (io/include/puddle/camera.h).
import type { Vec3 } from './puddle.js';

/** pdl_camera: degrees for yaw, pitch and fov; world units for target and distance. */
export interface Camera {
	target: Vec3;
	/** About +y; 0 on the +z side looking towards -z, 90 on the +x side. */
	yaw: number;
	/** Above the horizon, in [-89, 89]; positive looks down. */
	pitch: number;
	/** > 0 */
	distance: number;
	/** Vertical field of view, in [5, 120]. */
	fov: number;
}

type Point3 = { x: number; y: number; z?: number };

export declare function defaultCamera(): Camera;
export declare function cameraFraming(lo: Point3, hi: Point3): Camera;
export declare function cameraFrame(camera: Camera): { f: number[]; r: number[]; u: number[] };
export declare function cameraEye(camera: Camera): Vec3;
/** Column-major view-projection matrix (clip = m * (x, y, z, 1)). */
export declare function cameraMatrix(camera: Camera, aspect: number, out?: Float32Array): Float32Array;
/** Unit ray direction from the eye through normalized device coordinates (y up). */
export declare function cameraRay(camera: Camera, aspect: number, ndcX: number, ndcY: number): Vec3;
export declare function clampCamera(camera: Camera): Camera;
