package io.weft.placement;

/** A two-tier leaf-spine ledger with hand-placed paths, for the engine passes' own tests. */
final class LedgerFixture {
    final DenseFabric ix;
    final ReservationLedger ledger;

    LedgerFixture(int leaves, int spines, int nicsPerLeaf) {
        ix = DenseFabric.of(Fixtures.leafSpine(leaves, spines, nicsPerLeaf));
        ledger = new ReservationLedger(ix, PlacementConfig.DEFAULTS);
    }

    PathChooser chooser() {
        return new PathChooser(ix, new CandidatePaths(ix), ledger.loadKbps(), ledger.elephants(), 1);
    }

    /** Registers flow {@code id} from leafA-nicN to leafB-nicN. */
    int flow(String id, int leafA, int leafB, int nic, double gbps) {
        return ledger.newSlot(new Flow(id, "j", "leaf" + leafA + "-nic" + nic, "leaf" + leafB + "-nic" + nic, gbps, 0),
                "default");
    }

    /** The path of leafA-nicN to leafB-nicN through the given spine. */
    int[] via(int leafA, int leafB, int nic, int spine) {
        String src = "leaf" + leafA + "-nic" + nic;
        String dst = "leaf" + leafB + "-nic" + nic;
        return new int[] {ix.arcOf(src + "-up", src), ix.arcOf("leaf" + leafA + "-spine" + spine, "leaf" + leafA),
            ix.arcOf("leaf" + leafB + "-spine" + spine, "spine" + spine), ix.arcOf(dst + "-up", "leaf" + leafB)};
    }
}
