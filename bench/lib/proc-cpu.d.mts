export declare function cpuMsOfStat(path: string): number;
