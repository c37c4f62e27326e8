package io.weft.placement;

/**
 * One placeable unit of traffic: a single QP slice from {@code srcNic} to {@code dstNic}.
 * A pattern flow with {@code qpSlices = k} becomes k Flows with {@code slice} 0..k-1, each carrying
 * {@code demandGbps / k}.
 */
public record Flow(String id, String job, String srcNic, String dstNic, double demandGbps, int slice) {
}
