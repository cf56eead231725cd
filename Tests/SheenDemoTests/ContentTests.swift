import Foundation
import SheenDemo
import SheenKit
import SheenPlatform
import SheenRaster
import Testing

@Suite struct ContentTests {
  @Test func theListHoldsAtLeast200VariedCards() throws {
    let w = makeDemo()
    let c = w.cards
    #expect(c.cardCount >= 200)
    let contents = (0..<c.cardCount).map { c.content(at: $0) }
    #expect(Set(contents.map(\.title)).count == contents.count)
    #expect(Set(contents.map(\.buttonTitle)).count > 4)
    #expect(contents.contains { $0.header == .image } && contents.contains { $0.header == .strip })
    // Only a screenful of rows exists: the collection view reuses them.
    #expect(w.list.visibleCells.count <= 4)
    // Both shadow styles, each with the setup its seed uses: scroll through the list and look at
    // each row that shows.
    var styles: Set<DemoContent.ShadowStyle> = []
    var y: CGFloat = 0
    while y < w.list.contentSize.height {
      w.list.contentOffset = CGPoint(x: 0, y: y)
      w.advance(to: 0)
      for case let row as CardRowCell in w.list.visibleCells {
        if let shelf = row as? ShelfCell {
          styles.insert(.container)
          // A clear row with the row's one shadow, over clear cells.
          #expect(shelf.layer.shadowOpacity > 0 && (shelf.backgroundColor?.cgColor.alpha ?? 0) == 0)
          for cell in shelf.cardCells {
            let clear = try #require(cell as? ClearCardCell)
            #expect((clear.backgroundColor?.cgColor.alpha ?? 0) == 0 && clear.layer.shadowOpacity == 0)
          }
        } else {
          styles.insert(.perCard)
          #expect(row.layer.shadowOpacity == 0)
          let cell = try #require(row.cardCells.first as? ShadowedCardCell)
          #expect(cell.layer.shadowPath != nil && cell.layer.shadowOpacity > 0)
        }
        // The card is pinned to its cell's content view by constraints.
        for cell in row.cardCells where !cell.isHidden {
          let card = try #require(cell.contentView.subviews.first as? CardView)
          #expect(!card.translatesAutoresizingMaskIntoConstraints && card.frame == cell.contentView.bounds)
        }
      }
      y += 300
    }
    #expect(styles == [.container, .perCard])
    // Content is the same on every run.
    #expect(CardContent(index: 17) == CardContent(index: 17))
  }

  @Test func cardsAreRoundedClippedAndTruncated() throws {
    let w = makeDemo()
    let card = try #require(w.cards.cardView(at: 0))
    #expect(card.layer.cornerRadius == 16 && card.clipsToBounds)
    #expect(card.subtitleLabel.numberOfLines == 2 && card.subtitleLabel.lineBreakMode == .byTruncatingTail)
    #expect(card.button.titleLabel?.text == card.content.buttonTitle.uppercased())
    #expect(card.button.layer.cornerRadius == 0 && card.button.layer.shadowOpacity > 0)
    let tag = card.tags[0]
    #expect(tag.corners != .allCorners || card.tags.count == 1 || card.tags[1].corners != .allCorners)
  }

  @Test(arguments: [DemoContent.ShadowStyle.container, .perCard])
  func aHeadlessFrameShowsCardsWithRoundedCornersAndShadows(style: DemoContent.ShadowStyle) throws {
    let w = makeDemo(width: 420, height: 520)
    // Scroll so that the section's first card with a flat header strip sits in the middle.
    let section = try #require(DemoContent.sections.first { $0.style == style })
    let index = try #require(section.cards.first { w.cards.content(at: $0).header == .strip })
    let card = try #require(showCard(w, index))
    let top = card.convert(CGPoint.zero, to: w.list).y
    w.list.contentOffset = CGPoint(x: 0, y: top - 100)
    let s = try render(w, at: 0)
    let f = card.convert(card.bounds, to: nil)
    let x0 = Int(f.minX)
    let y0 = Int(f.minY)
    let x1 = Int(f.maxX)
    let y1 = Int(f.maxY)
    let background = s[5, Int(f.midY)]
    // Inside the header strip: its colour, not the list's.
    let inside = s[x0 + 30, y0 + 30]
    #expect(inside != background)
    // The very corner is cut away by the radius-16 clip; a few points in along the diagonal is
    // the strip, which follows the corner.
    #expect(rgb(s[x0 + 1, y0 + 1]) != rgb(inside))
    #expect(rgb(s[x0 + 8, y0 + 8]) == rgb(inside))
    // Corners at the bottom: white body inside, not at the very corner.
    #expect(luminance(s[x1 - 8, y1 - 8]) > 245)
    #expect(luminance(s[x1 - 1, y1 - 1]) < 245)
    // A shadow under the card, darker than the list background a few pixels below its bottom,
    // and following the rounded corner (lighter beyond the corner than under the middle).
    let under = luminance(s[Int(f.midX), y1 + 4])
    #expect(under < luminance(background) - 4, "\(style): no shadow under the card")
    #expect(luminance(s[x1 + 2, y1 + 2]) > under, "\(style): the shadow has a square corner")
  }

  @Test func aHeadlessFrameShowsThePageHeader() throws {
    let w = makeDemo(width: 420, height: 520)
    // The page header is dark (rendered at the top when scrolled there).
    w.list.contentOffset = .zero
    let h = try render(w, at: 0)
    #expect(luminance(h[60, 60]) < 60)
  }

  @Test func resizeReLaysOutCardsAndTheirShadowPaths() throws {
    let w = makeDemo(width: 420, height: 320)
    let perCard = try #require(DemoContent.sections.first { $0.style == .perCard })
    let first = perCard.cards.lowerBound
    let card = try #require(showCard(w, first))
    let cell = try #require(card.superview?.superview as? ShadowedCardCell)
    let before = cell.bounds.width
    w.dispatch(.resize(PixelSize(width: 560, height: 400)), time: 0)
    w.advance(to: 0)
    #expect(cell.bounds.width == before + 140)
    #expect(card.bounds.width == cell.bounds.width)
    #expect(abs(try #require(cell.layer.shadowPath).boundingBox.width - cell.bounds.width) < 0.5)
    // Wide enough for two columns: the rows hold two cards each.
    w.dispatch(.resize(PixelSize(width: 760, height: 400)), time: 0)
    w.advance(to: 0)
    #expect(w.cards.columns == 2)
    let a = try #require(showCard(w, first))
    let b = try #require(w.cards.cardView(at: first + 1))
    let cellA = try #require(a.superview?.superview as? ShadowedCardCell)
    #expect(a.bounds.width == cellA.bounds.width && a.bounds.width == (720 - 20) / 2)
    let shadow = try #require(cellA.layer.shadowPath)
    #expect(abs(shadow.boundingBox.width - cellA.bounds.width) < 0.5)
    #expect(abs(b.convert(CGPoint.zero, to: nil).y - a.convert(CGPoint.zero, to: nil).y) < 1)
  }
}
