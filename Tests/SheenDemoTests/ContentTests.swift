import Foundation
import SheenDemo
import SheenKit
import SheenPlatform
import SheenRaster
import Testing

@Suite struct ContentTests {
  @Test func theListHoldsAtLeast200VariedCards() throws {
    let w = makeDemo()
    let cards = w.list.cards
    #expect(cards.count >= 200)
    #expect(Set(cards.map(\.content.title)).count == cards.count)
    #expect(Set(cards.map(\.content.buttonTitle)).count > 4)
    #expect(cards.contains { $0.content.header == .image } && cards.contains { $0.content.header == .strip })
    // Both shadow styles, each with the setup its seed uses.
    let styles = Set(w.list.sections.map(\.section.style))
    #expect(styles == [.container, .perCard])
    for s in w.list.sections {
      switch s.section.style {
      case .container:
        // Clear cells in clear shelves, each shelf with one shadow.
        #expect(!s.shelves.isEmpty && s.shelves.allSatisfy { $0.layer.shadowOpacity > 0 })
        #expect(s.shelves.allSatisfy { ($0.backgroundColor?.cgColor.alpha ?? 0) == 0 })
        for card in s.cards {
          let cell = try #require(card.superview?.superview as? ClearCardCell)
          #expect((cell.backgroundColor?.cgColor.alpha ?? 0) == 0 && cell.layer.shadowOpacity == 0)
          #expect(s.shelves.contains { $0 === cell.superview })
        }
      case .perCard:
        #expect(s.container.layer.shadowOpacity == 0)
        let cell = try #require(s.cards.first?.superview?.superview as? ShadowedCardCell)
        #expect(cell.layer.shadowPath != nil && cell.layer.shadowOpacity > 0)
      }
    }
    // Content is the same on every run.
    #expect(CardContent(index: 17) == CardContent(index: 17))
  }

  @Test func cardsAreRoundedClippedAndTruncated() {
    let w = makeDemo()
    let card = w.list.cards[0]
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
    let section = try #require(w.list.sections.first { $0.section.style == style })
    let card = try #require(section.cards.first { $0.content.header == .strip })
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
    let perCard = try #require(w.list.sections.first { $0.section.style == .perCard })
    let cell = try #require(perCard.cards[0].superview?.superview as? ShadowedCardCell)
    let before = cell.bounds.width
    w.dispatch(.resize(PixelSize(width: 560, height: 400)), time: 0)
    w.advance(to: 0)
    #expect(cell.bounds.width == before + 140)
    #expect(abs(try #require(cell.layer.shadowPath).boundingBox.width - cell.bounds.width) < 0.5)
    // Wide enough for two columns.
    w.dispatch(.resize(PixelSize(width: 760, height: 400)), time: 0)
    w.advance(to: 0)
    #expect(perCard.cards[0].bounds.width == cell.bounds.width)
    let shadow = try #require(cell.layer.shadowPath)
    #expect(abs(shadow.boundingBox.width - cell.bounds.width) < 0.5)
    // Two columns now.
    #expect(
      abs(
        perCard.cards[1].convert(CGPoint.zero, to: nil).y - perCard.cards[0].convert(CGPoint.zero, to: nil).y)
        < 1)
  }
}
